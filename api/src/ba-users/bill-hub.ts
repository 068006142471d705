import { Router } from 'express';
import { z } from 'zod';
import { STATES, stateById } from '../../../domain/src/masters/catalog';
import { DomainError } from '../../../domain/src/shared/errors';
import { parseListQuery, sendList } from '../http/simple-rest';
import { listUsers, type UserRecord, type UserSortField } from '../../../projections/src/identity/users.queries';
import type { Db } from '../../../projections/src/sql';
import type { BillHubUser } from '../contract';
import { blockAccount, registerInvitedAccount, unblockAccount, type AccountDeps } from '../users/accounts';
import { emailId, mobileNo, parseBody, personName } from '../users/fields';
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

export const toBillHubUser = (u: UserRecord): BillHubUser => ({
  id: u.id,
  name: u.name,
  emailId: u.username,
  mobileNo: u.mobileNo,
  stateId: u.billHubStateId ?? 0,
  stateName: stateById(u.billHubStateId)?.name ?? NO_CHILD_CODE,
  childCode: NO_CHILD_CODE,
  Status: displayStatus(u),
});

const stateId = z.preprocess(
  (v) => (typeof v === 'string' && /^\d{1,4}$/.test(v) ? Number(v) : v),
  z
    .number({ error: billHubMessages.stateRequired })
    .int({ error: billHubMessages.stateRequired })
    .refine((id) => STATES.some((s) => s.id === id), { error: billHubMessages.stateRequired }),
);

const createBody = z.object({ stateId, name: personName, emailId, mobileNo });

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
    sendList(res, 'bill-hub-users', range, rows.map(toBillHubUser), total);
  });

  router.get('/bill-hub-users/:id', baAdmin, async (req, res) => {
    res.json(toBillHubUser(await ownUser(deps, req, baCaller(res), isBillHubUser)));
  });

  router.post('/bill-hub-users', baAdmin, async (req, res) => {
    const caller = baCaller(res);
    const body = parseBody(createBody, req.body);
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
    res.status(201).json(toBillHubUser(user));
  });

  for (const verb of ['block', 'unblock'] as const) {
    router.post(`/bill-hub-users/:id/${verb}`, baAdmin, async (req, res) => {
      const caller = baCaller(res);
      const user = await ownUser(deps, req, caller, isBillHubUser);
      const reason = blockReason(req.body, verb);
      const done = verb === 'block' ? blockAccount(deps, user, reason, caller.actor) : unblockAccount(deps, user, reason, caller.actor);
      res.json(toBillHubUser(await done));
    });
  }

  return router;
}
