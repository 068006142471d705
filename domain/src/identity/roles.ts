/** Role names exactly as spec 000 §6 gives them, plus our read-only auditor. */
export const BA_ROLES = ['BA Admin', 'BA User'] as const;
export const STAFF_ROLES = [
  'BA Engagement Manager',
  'MLL Procurement',
  'MLL-ADMIN',
  'MLL Commercial',
  'IDT-Team',
  'MDM',
  'MLL Accounts',
  'MLL Accounts_HEAD',
  'MLL Operations',
  'MLL Legal',
] as const;
/** Not a role of the old portal: auditors replay activity logs and event history and change nothing. */
export const AUDITOR_ROLE = 'Auditor' as const;
export const SYSTEM_ROLE = 'system' as const;

export type BaRole = (typeof BA_ROLES)[number];
export type StaffRole = (typeof STAFF_ROLES)[number];
export type Role = BaRole | StaffRole | typeof AUDITOR_ROLE;
export const ALL_ROLES: readonly Role[] = [...BA_ROLES, ...STAFF_ROLES, AUDITOR_ROLE];

export const isBaRole = (role: string): role is BaRole => (BA_ROLES as readonly string[]).includes(role);
export const isStaffRole = (role: string): role is StaffRole => (STAFF_ROLES as readonly string[]).includes(role);

/**
 * Who may decide which review stage (spec 000 §6 leaves it open; decision recorded in ARCHITECTURE.md).
 * Stage 1 verifies the submitted company details; stage 2 is the commercial sign-off.
 */
export const REVIEW_STAGE_ROLES: Record<1 | 2, readonly StaffRole[]> = {
  1: ['MLL Procurement', 'MLL-ADMIN'],
  2: ['MLL Commercial', 'MLL Accounts_HEAD', 'MLL-ADMIN'],
};

export const mayReviewStage = (roles: readonly string[], stage: 1 | 2): boolean =>
  roles.some((r) => (REVIEW_STAGE_ROLES[stage] as readonly string[]).includes(r));

/**
 * Block and unblock of vendor codes (issue 9; "not shown" in the spec, decided in the contract): who may ask for
 * a block or unblock, and who approves it — never the person who asked (domain/src/block/decide.ts).
 */
export const BLOCK_REQUESTERS: readonly StaffRole[] = [
  'MLL Accounts',
  'MLL Accounts_HEAD',
  'MLL Procurement',
  'MLL Legal',
  'BA Engagement Manager',
  'MLL-ADMIN',
];
export const BLOCK_APPROVERS: readonly StaffRole[] = ['MLL Accounts_HEAD', 'MLL Legal', 'MLL-ADMIN'];

/**
 * ERP vendor codes (issue 9; "not shown" in the spec, decided in the contract): who may request parent and child
 * codes, set payment terms, set the vendor category, change the reconciliation account or withholding tax and
 * reject a request; who approves or rejects a vendor category — never the person who set it
 * (domain/src/vendor-code/decide.ts).
 */
export const SAP_REQUESTERS: readonly StaffRole[] = ['MLL Accounts', 'MLL Accounts_HEAD', 'MDM', 'MLL-ADMIN'];
export const SAP_APPROVERS: readonly StaffRole[] = ['MLL Accounts_HEAD', 'MLL-ADMIN'];

/** Utility/government and other-company vendor codes from workbooks: the main admin alone (spec 000 §6). */
export const VENDOR_CODE_CREATORS: readonly StaffRole[] = ['MLL-ADMIN'];

/** Nucleus and SAP-verified mass upload and its templates (issue 9 contract): MLL-ADMIN and MDM. */
export const MASS_UPLOADERS: readonly StaffRole[] = ['MLL-ADMIN', 'MDM'];

/**
 * Bill-Hub invoices and memos (issue 11; "not shown" in the spec, decided here and in ARCHITECTURE.md):
 * commercial staff acknowledge, verify and reject submitted invoices; accounts staff book (post to the ERP),
 * release, reject, revoke and record advance payments. Every staff role and the Auditor may read the invoices
 * and memos of their company codes.
 */
export const INVOICE_COMMERCIAL: readonly StaffRole[] = ['MLL Commercial', 'MLL-ADMIN'];
export const INVOICE_ACCOUNTS: readonly StaffRole[] = ['MLL Accounts', 'MLL Accounts_HEAD', 'MLL-ADMIN'];
