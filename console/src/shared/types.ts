import type { BusinessAssociate as BaRow, ReviewTask as TaskRow, SessionResponse } from '../../../api/src/contract';

/**
 * The shapes the console reads from the API: the API's own (api/src/contract.ts), imported as types only so
 * nothing of the server reaches the bundle, and the server and the screens agree on one definition.
 */
import type { BaCounts as ApiBaCounts } from '../../../api/src/contract';

export type {
  ActivityEntry,
  AppAccess,
  AppId,
  BaStatus,
  FieldChange,
  Me,
  OtpChallenge,
  OtpResent,
  ReviewStage,
  SessionResponse,
  StaffUser,
} from '../../../api/src/contract';

/**
 * What a BA registered with (issue 5): a BA that has filled nothing in yet has no company name, so staff
 * recognise it by these. The read model is gaining them now; optional here until every row carries them.
 */
type Registered = { registeredEmail?: string | null; registeredMobile?: string | null };

/** One row of /api/business-associates (and the answer to each onboarding command). */
export type BusinessAssociate = BaRow & Registered;

/** GET /api/ba-counts; additionalDocumentsPending is optional until the API sends it (its badge stays empty meanwhile). */
export type BaCounts = ApiBaCounts & Partial<Record<'additionalDocumentsPending', number>>;
/** One row of /api/tasks ("My Pending Task"). */
export type ReviewTask = TaskRow & Registered;

/** API.md names the event id `eventId`; the API as built sends it as `id` (react-admin's record key). */
export type StoredEventRow = {
  id?: string;
  eventId?: string;
  globalPosition: string | number;
  version: number;
  type: string;
  data: unknown;
  metadata: Record<string, unknown> | null;
  recordedAt: string;
  prevHash: string | null;
  hash: string;
};

/** The session the console keeps in memory: the login answer without its lifetime. */
export type Session = Pick<SessionResponse, 'accessToken' | 'user'>;
