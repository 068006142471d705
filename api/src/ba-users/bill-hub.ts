import { Router } from 'express';
import { z } from 'zod';
import { DomainError } from '../../../domain/src/shared/errors';
import { fieldErrors } from '../../../domain/src/validation/fields';
import { parseListQuery, sendList } from '../http/simple-rest';
import { listUsers, type UserRecord, type UserSortField } from '../../../projections/src/identity/users.queries';
import { getMasterItems } from '../../../projections/src/masters/masters.queries';
import type { Db } from '../../../projections/src/sql';
import type { BillHubUser } from '../contract';
import { accountMessages, blockAccount, registerInvitedAccount, unblockAccount, type AccountDeps } from '../users/accounts';
import { emailId, mobileNo, personName } from '../users/fields';
import { baAdminOnly, baCaller, blockReason, displayStatus, ownUser } from './common';

/**
 * Child Bill-Hub users (react-admin resource `bill-hub-users`; spec 000 §2 /onboard/BA/add-childBillHub-user,
 * "Add GST-State BA for Billhub"): one user per GST state of the BA, who signs in to the Bill-Hub area only.
 * GST places of business come with a later issue; until then the BA Admin picks the state from the states
 * catalogue, and a state may have one Bill-Hub user per BA (a blocked one still holds it: unblock it instead).
 */
export const billHubMessages = {
  stateRequired: 'Please select a state',
  stateTaken: 'A Bill-Hub user already exists for this state',
} as const;

/** No vendor codes exist yet: the child code column shows the spec's missing-value marker. */
const NO_CHILD_CODE = 'NA';

/** Names of the states these users bill for, from the States master (one query for a page). */
async function stateNames(db: Db, users: readonly UserRecord[]): Promise<Map<number, { name: string }>> {
  const ids = [...new Set(users.map((u) => u.billHubStateId).filter((id): id is number => id !== null))];
  const items = await getMasterItems(db, 'states', ids);
  return new Map(items.map((s) => [Number(s.id), { name: String(s['name'] ?? '') }]));
}

export const toBillHubUser = (u: UserRecord, states: ReadonlyMap<number, { name: string }>): BillHubUser => ({
  id: u.id,
  name: u.name,
  emailId: u.username,
  mobileNo: u.mobileNo,
  stateId: u.billHubStateId ?? 0,
  stateName: (u.billHubStateId !== null ? states.get(u.billHubStateId)?.name : undefined) ?? NO_CHILD_CODE,
  childCode: NO_CHILD_CODE,
  Status: displayStatus(u),
});

const withStateName = async (db: Db, u: UserRecord): Promise<BillHubUser> => toBillHubUser(u, await stateNames(db, [u]));

/** The id's shape here; whether the States master holds it (active) is asked before the user is created. */
const stateId = z.preprocess(
  (v) => (typeof v === 'string' && /^\d{1,4}$/.test(v) ? Number(v) : v),
  z
    .number({ error: billHubMessages.stateRequired })
    .int({ error: billHubMessages.stateRequired })
    .positive({ error: billHubMessages.stateRequired }),
);

const createBody = z.object({ stateId, name: personName, emailId, mobileNo });

/** The body, with its state checked against the States master (active); every field's message in one answer. */
async function parseCreateBody(db: Db, body: unknown): Promise<z.output<typeof createBody>> {
  const parsed = createBody.safeParse(body ?? {});
  const errors = parsed.success ? {} : fieldErrors(parsed.error);
  const id = stateId.safeParse((body as { stateId?: unknown } | null)?.stateId);
  const state = id.success ? (await getMasterItems(db, 'states', [id.data]))[0] : undefined;
  if (state?.status !== 'active') errors.stateId ??= billHubMessages.stateRequired;
  if (!parsed.success || state?.status !== 'active') throw new DomainError('validation', accountMessages.invalid, errors);
  return parsed.data;
}

const filter = z
  .object({
    q: z.string().trim().max(100),
    Status: z.enum(['Active', 'Blocked']),
    id: z.union([z.string().max(100), z.array(z.string().max(100)).max(100)]),
  })
  .partial()
  .strict();

const SORT_FIELDS = ['name', 'emailId', 'createdAt', 'Status'] as const;
const sortColumn: Record<(typeof SORT_FIELDS)[number], UserSortField> = {
  name: 'name',
  emailId: 'username',
  createdAt: 'createdAt',
  Status: 'status',
};

const isBillHubUser = (u: UserRecord) => u.billHubStateId !== null;

async function stateTaken(db: Db, baId: string, state: number): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM users WHERE ba_id = $1 AND bill_hub_state_id = $2 LIMIT 1', [baId, state]);
  return rows.length > 0;
}

export function billHubUserRoutes(deps: AccountDeps): Router {
  const router = Router();
  const baAdmin = baAdminOnly();

  router.get('/bill-hub-users', baAdmin, async (req, res) => {
    const { baId } = baCaller(res);
    const { sort, range, filter: f } = parseListQuery(req.query, {
      sortFields: SORT_FIELDS,
      defaultSort: { field: 'name', order: 'ASC' },
      filter,
    });
    const ids = f.id === undefined ? undefined : Array.isArray(f.id) ? f.id : [f.id];
    const { rows, total } = await listUsers(deps.pool, {
      kind: 'ba',
      baId,
      billHub: true,
      status: f.Status === undefined ? undefined : f.Status === 'Blocked' ? 'blocked' : 'active',
      q: f.q,
      ids,
      sort: { field: sortColumn[sort.field], order: sort.order },
      range,
    });
    const states = await stateNames(deps.pool, rows);
    sendList(res, 'bill-hub-users', range, rows.map((u) => toBillHubUser(u, states)), total);
  });

  router.get('/bill-hub-users/:id', baAdmin, async (req, res) => {
    res.json(await withStateName(deps.pool, await ownUser(deps, req, baCaller(res), isBillHubUser)));
  });

  router.post('/bill-hub-users', baAdmin, async (req, res) => {
    const caller = baCaller(res);
    const body = await parseCreateBody(deps.pool, req.body);
    const user = await registerInvitedAccount(
      deps,
      {
        name: body.name,
        emailId: body.emailId,
        mobileNo: body.mobileNo,
        department: null,
        // A Bill-Hub-only user: post-login routing sends it to the Bill-Hub area and nowhere else.
        applications: [{ appId: 'BillHub', roleName: 'BA User' }],
        companyCodes: caller.principal.companyCodes,
        baId: caller.baId,
        billHubStateId: body.stateId,
      },
      caller.actor,
      {
        // Checked under a lock on the BA's state, so two concurrent requests cannot both take it.
        lockKeys: [`bill-hub:${caller.baId}:${body.stateId}`],
        extraCheck: async (client) => {
          if (await stateTaken(client, caller.baId, body.stateId))
            throw new DomainError('conflict', billHubMessages.stateTaken, { stateId: billHubMessages.stateTaken });
        },
      },
    );
    res.status(201).json(await withStateName(deps.pool, user));
  });

  for (const verb of ['block', 'unblock'] as const) {
    router.post(`/bill-hub-users/:id/${verb}`, baAdmin, async (req, res) => {
      const caller = baCaller(res);
      const user = await ownUser(deps, req, caller, isBillHubUser);
      const reason = blockReason(req.body, verb);
      const done = verb === 'block' ? blockAccount(deps, user, reason, caller.actor) : unblockAccount(deps, user, reason, caller.actor);
      res.json(await withStateName(deps.pool, await done));
    });
  }

  return router;
}
