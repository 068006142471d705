import simpleRestProvider from 'ra-data-simple-rest';
import type { DataProvider, Identifier } from 'react-admin';
import type {
  ActivityEntry,
  BaCounts,
  BusinessAssociate,
  ReviewStage,
  StaffUser,
  StoredEventRow,
} from '../shared/types';
import { auditMethods, type AuditDataProvider } from '../audit/dataProvider';
import { annexureMethods, type AnnexureDataProvider } from '../annexures/dataProvider';
import { masterMethods, type MasterDataProvider } from '../masters/dataProvider';
import { itemMethods, type ItemDataProvider } from '../onboarding/items/dataProvider';
import { API_URL, httpClient } from './httpClient';

/**
 * Reads follow ra-data-simple-rest; business actions are commands with their own methods (design.md §6-7),
 * called through useMutation. Each command carries an Idempotency-Key chosen once per user action, so a
 * double click or a retry after a lost answer is one decision.
 */
export type DecisionParams = {
  stage: ReviewStage;
  remarks?: string | null;
  idempotencyKey: string;
  /** The application decided: absent for the BA's first company code, set for another code it applied for. */
  companyCode?: string;
};

export type ConsoleDataProvider = DataProvider &
  AuditDataProvider &
  AnnexureDataProvider &
  MasterDataProvider &
  ItemDataProvider & {
  approve(id: Identifier, params: DecisionParams): Promise<{ data: BusinessAssociate }>;
  reject(id: Identifier, params: DecisionParams & { remarks: string }): Promise<{ data: BusinessAssociate }>;
  /** Sidebar and tab badges. */
  getCounts(): Promise<BaCounts>;
  /** The BA's activity log in the API's order (oldest first). */
  getActivityLog(baId: Identifier): Promise<ActivityEntry[]>;
  /** The BA's stored events with their hashes (Auditor, MLL-ADMIN). */
  getEventHistory(baId: Identifier): Promise<StoredEventRow[]>;
  /** POST /api/users/:id/block | unblock with the required reason (MLL-ADMIN). */
  blockUser(id: Identifier, params: { reason: string }): Promise<{ data: StaffUser }>;
  unblockUser(id: Identifier, params: { reason: string }): Promise<{ data: StaffUser }>;
  /** POST /api/contact-changes: e-mails the user a link to change their e-mail id and mobile number. */
  startContactChange(userId: string): Promise<{ id: string; expiresAt: string }>;
};

/** One BA's history is short; a page of the API's maximum (100) holds it. */
const HISTORY_RANGE = '[0,99]';

const baPath = (id: Identifier) => `${API_URL}/business-associates/${encodeURIComponent(String(id))}`;

async function command(id: Identifier, verb: 'approve' | 'reject', params: DecisionParams) {
  const { idempotencyKey, ...body } = params;
  const { json } = await httpClient(`${baPath(id)}/${verb}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: new Headers({ 'Idempotency-Key': idempotencyKey }),
  });
  return { data: json as BusinessAssociate };
}

const userPath = (id: Identifier) => `${API_URL}/users/${encodeURIComponent(String(id))}`;

/** Block and unblock answer with the user row; an empty answer still lets the screen go on. */
async function userCommand(id: Identifier, verb: 'block' | 'unblock', reason: string) {
  const { json } = await httpClient(`${userPath(id)}/${verb}`, {
    method: 'POST',
    body: JSON.stringify({ reason }),
  });
  return { data: { ...(json as StaffUser | null), id: String(id) } as StaffUser };
}

export function createDataProvider(): ConsoleDataProvider {
  return {
    ...simpleRestProvider(API_URL, httpClient),
    ...auditMethods,
    ...annexureMethods,
    ...masterMethods,
    ...itemMethods,
    approve: (id, params) => command(id, 'approve', params),
    reject: (id, params) => command(id, 'reject', params),
    getCounts: async () => (await httpClient(`${API_URL}/ba-counts`)).json as BaCounts,
    getActivityLog: async (baId) => {
      const query = new URLSearchParams({ range: HISTORY_RANGE });
      return (await httpClient(`${baPath(baId)}/activity-log?${query}`)).json as ActivityEntry[];
    },
    getEventHistory: async (baId) => {
      const query = new URLSearchParams({ range: HISTORY_RANGE });
      return (await httpClient(`${baPath(baId)}/events?${query}`)).json as StoredEventRow[];
    },
    blockUser: (id, { reason }) => userCommand(id, 'block', reason),
    unblockUser: (id, { reason }) => userCommand(id, 'unblock', reason),
    startContactChange: async (userId) => {
      const { json } = await httpClient(`${API_URL}/contact-changes`, { method: 'POST', body: JSON.stringify({ userId }) });
      return json as { id: string; expiresAt: string };
    },
  };
}

export const dataProvider = createDataProvider();
