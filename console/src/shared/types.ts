import type { SessionResponse } from '../../../api/src/contract';

/**
 * The shapes the console reads from the API: the API's own (api/src/contract.ts), imported as types only so
 * nothing of the server reaches the bundle, and the server and the screens agree on one definition.
 */
export type {
  ActivityEntry,
  BaCounts,
  BaStatus,
  BusinessAssociate,
  FieldChange,
  Me,
  ReviewStage,
  ReviewTask,
} from '../../../api/src/contract';

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
