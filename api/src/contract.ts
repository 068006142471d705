import type { ActivityRow, ActivitySearchRow } from '../../projections/src/activity-log/activity-log.queries';
import type { BaStatus } from '../../projections/src/business-associates/business-associates.projection';
import type {
  BusinessAssociateRow,
  StatusCounts,
} from '../../projections/src/business-associates/business-associates.queries';
import type { TaskRow } from '../../projections/src/tasks/tasks.queries';
import type { Application } from './http/auth';
import type { CityRow } from '../../domain/src/masters/reference-data/cities';
import type { CompanyRow } from '../../domain/src/masters/reference-data/companies';
import type { DepartmentRow } from '../../domain/src/masters/reference-data/departments';
import type { ServiceRow } from '../../domain/src/masters/reference-data/services';
import type { StateRow } from '../../domain/src/masters/reference-data/states';

/**
 * The shapes the API answers with, in one place: the console and the portal `import type` them, so the
 * server and the front ends cannot drift apart. Types only: a type-only import is erased, so no server code
 * reaches a browser bundle. The rows are the read models' own (the routes send them as they are).
 */
export type { Application, BaStatus };
export type { CompanyDetails } from '../../domain/src/onboarding/details';
/** Items of the masters the forms read, as GET /api/<master> answers them (fields: domain/src/masters/definitions.ts). */
type ItemOf<Row, Id = number> = Omit<Row, 'id'> & { id: Id; status: 'active' | 'inactive'; updatedAt: string };
export type State = ItemOf<StateRow>;
export type City = ItemOf<CityRow>;
export type Service = ItemOf<ServiceRow>;
export type Company = ItemOf<CompanyRow, string>;
export type Department = ItemOf<DepartmentRow>;
/** One item of GET /api/<master> and GET /api/<master>/:id: `{ id, ...values, status, updatedAt }`. */
export type { MasterItem } from '../../projections/src/masters/masters.queries';
/** One row of GET /api/masters/counts (the Masters dashboard). */
export type MasterCountRow = { master: string; label: string; active: number; inactive: number };
/** POST /api/<master>/import when every row was valid. */
export type MasterImportResult = { created: number; updated: number; unchanged: number; message: string };

/** One row of /api/business-associates, and the answer to each onboarding command. */
export type BusinessAssociate = BusinessAssociateRow;
export type ReviewStage = NonNullable<BusinessAssociate['stage']>;

/**
 * The onboarding items of a BA (GET /api/business-associates/:id/<items>), exactly as their read model answers
 * them: the console and the portal read these, never copies of them.
 */
export type {
  AdditionalDocumentRow,
  BankAccountRow,
  ChangeRequestRow,
  CompanyApplicationRow as CompanyCodeRow,
  ConcessionRow,
  DocumentRow,
  GstRegistrationRow,
  ReviewStatus,
  VerticalMappingRow,
} from '../../projections/src/onboarding-items/items.queries';
export type { DuplicateRow } from '../../projections/src/onboarding-items/duplicates.queries';
export type { DocumentKind } from '../../domain/src/onboarding/items';

/** The SAP area (issue 9): vendor codes per BA and company code, block requests, nucleus vendors, workbooks. */
export type {
  VendorCodeCounts,
  VendorCodeRow,
  VendorCodeTab,
} from '../../projections/src/vendor-codes/vendor-codes.queries';
export type { VendorCodeStatus } from '../../domain/src/vendor-code/state';
export type { BlockRow, BlockRowStatus } from '../../projections/src/blocks/blocks.queries';
export type { MassUploadRow, NucleusVendorRow } from '../../projections/src/nucleus-vendors/nucleus-vendors.queries';
// Bill-Hub and the performance dashboard (issue 11).
export type { InvoiceRow, InvoiceAttachment, InvoiceStatus } from '../../projections/src/invoices/invoices.queries';
export type { InvoiceHistoryEntry } from '../../projections/src/invoices/history';
export type { MemoRow, MemoDetail, MemoAdvance } from '../../projections/src/memos/memos.queries';
export type { PerformanceReport, PerformanceBucket, DocumentValidity } from '../../projections/src/performance/performance.queries';
export type { WorkbookError, WorkbookKind, WorkbookResultRow } from '../../domain/src/vendor-code-workbook/rules';

/** One row of /api/tasks ("My Pending Task"). */
export type ReviewTask = TaskRow;

/** One row of /api/business-associates/:id/activity-log. */
export type ActivityEntry = ActivityRow;
export type FieldChange = NonNullable<ActivityEntry['changes']>[string];

/** One row of GET /api/audit/activity: the auditors' search across BAs. */
export type AuditActivityEntry = ActivitySearchRow;
/** GET /api/business-associates/:id/as-of?at=ISO and GET …/audit-export?format=json. */
export type { BaAsOf } from './audit/as-of';
export type { AuditEventRow, BaAuditExport } from './audit/export';
/** POST /api/audit/verify: the whole-trail verification, anchors included (api/src/audit/anchor-routes.ts). */
export type { AuditTrailResult as ChainVerification } from './audit/anchor-routes';

/** GET /api/ba-counts: the sidebar badges. */
/**
 * The Onboard sidebar's badges (spec 000 §2), within the caller's company codes (the active one, or all):
 * all = every BA ("All Request"); registered = registered, not submitted yet ("Registered Users");
 * pending = pendingOnboarding = submitted and under review ("Pending Onboarding Request"); firstStage /
 * secondStage = under review at that stage; verified ("Verified Users"); rejected; documentsExpired = BAs with
 * a lapsed document not replaced by an approved one; myPendingTasks = the caller's open review tasks ("My
 * Pending Task"); additionalDocumentsPending = additional documents waiting for review (the queue's badge).
 */
export type BaCounts = StatusCounts & { myPendingTasks: number; additionalDocumentsPending: number };

export type { AppAccess, AppId } from '../../domain/src/identity/applications';
import type { AppAccess } from '../../domain/src/identity/applications';

/** 'All' selects every company code the user holds (spec 000 §6, a sentinel). */
export type ActiveCompanyCode = string;
export const ALL_COMPANIES = 'All';

/** GET /api/me, and the `user` of a session: what a client learns about a user (never a password hash). */
export type Me = {
  id: string;
  username: string;
  name: string;
  emailId: string;
  mobileNo: string | null;
  roles: string[];
  /** Roles per application (spec 000 §3 `userApps`). */
  applications: AppAccess[];
  companyCodes: string[];
  activeCompanyCode: ActiveCompanyCode;
  baId: string | null;
  baStatus: BaStatus | null;
  application: Application;
  firstLogin: boolean;
  passwordExpired: boolean;
  status: 'active' | 'blocked';
  /** Where post-login routing sends this user (spec 000 §2): '/onboard/status', '/home', '/bill-hub', '/console', '/change-password'. */
  home: string;
};

/** POST /api/auth/login/verify-otp, /api/auth/refresh, /api/registrations/:id/verify, PUT /api/me/active-company. */
export type SessionResponse = { accessToken: string; expiresIn: number; user: Me };

/** POST /api/auth/login when the password was right: the code went out by SMS and e-mail. */
export type OtpChallenge = {
  otpRequired: true;
  challengeId: string;
  expiresInSeconds: number;
  resendAfterSeconds: number;
  sentTo: { mobile: string | null; email: string };
};

/** Answers of the "send a code again" calls. */
export type OtpResent = { expiresInSeconds: number; resendAfterSeconds: number };

/** POST /api/registrations. */
export type RegistrationStarted = { id: string; expiresInSeconds: number; resendAfterSeconds: number };

/** One row of /api/users (staff accounts, MLL-ADMIN). */
export type StaffUser = {
  id: string;
  name: string;
  emailId: string;
  mobileNo: string | null;
  roles: string[];
  applications: AppAccess[];
  companyCodes: string[];
  status: 'active' | 'blocked';
  kind: 'staff' | 'ba';
  createdAt: string;
};

/** One row of /api/ba-users (spec 000 §3 "BA users table columns" and "New-user list item"). */
export type BaUser = {
  id: string;
  baUserName: string;
  emailId: string;
  mobileNo: string | null;
  department: string | null;
  appAccess: AppAccess[];
  baId: string;
  status: 'Active' | 'Blocked';
};

/** One row of /api/bill-hub-users (spec 000 §3 "Child bill-hub user"). */
export type BillHubUser = {
  id: string;
  name: string;
  emailId: string;
  mobileNo: string | null;
  stateId: number;
  stateName: string;
  /** "NA" until vendor codes exist. */
  childCode: string;
  Status: 'Active' | 'Blocked';
};

/** GET /api/contact-changes/by-token/:baId/:token. */
export type ContactChangeLink = { step: 'identity' | 'edit' | 'otp'; expiresAt: string };
/** POST /api/contact-changes: the change started and its link e-mailed. */
export type ContactChangeStarted = { id: string; expiresAt: string };
/** POST /api/contact-changes/verify-identity (spec 000 §3 "BA identity for contact edit"). */
export type ContactChangeIdentity = { emailId: string; mobileNo: string | null; baUserId: string };

/** One row of GET /api/releases, and GET /api/releases/:versionReleased/:deviceType (What's New, release page). */
export type { ReleaseRow as Release } from '../../projections/src/releases/releases.queries';
/** GET /api/help: the user manual's address and the support mailbox. */
export type { HelpInfo } from './help/routes';

/** GET /api/notifications items; the stream's `notification` event carries one with the new unread count. */
export type { NotificationItem } from '../../projections/src/notifications/notifications.queries';
export type { StreamEvent as NotificationStreamEvent } from './notifications/streams';

/** RFPs (issue 10): the answers of the /api/rfps routes (api/src/rfp/views.ts). */
export type {
  RfpStaffListRow,
  RfpBaListRow,
  RfpStaffView,
  RfpPendingView,
  RfpCommandAnswer,
  RfpBaView,
  RfpLanePage,
  RfpLaneUploadAnswer,
  RfpFloatAnswer,
  RfpBackhaulAnswer,
  RfpMyResponses,
  RfpBidUploadAnswer,
} from './rfp/views';
export type { Comparison as RfpComparison } from '../../projections/src/rfps/comparison';
