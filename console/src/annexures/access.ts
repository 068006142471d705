/** Who maintains the PO annexures on the console (the API enforces the same rule on every write). */
export const ANNEXURE_ROLES: readonly string[] = ['MLL-ADMIN', 'MDM'];

export const mayManageAnnexures = (roles: readonly string[] | undefined): boolean =>
  (roles ?? []).some((r) => ANNEXURE_ROLES.includes(r));
