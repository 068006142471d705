import { Router } from 'express';
import { z } from 'zod';
import type { AppAccess, AppId } from '../../../domain/src/identity/applications';
import { normaliseKeyPart } from '../../../domain/src/masters/definitions';
import { DomainError } from '../../../domain/src/shared/errors';
import { fieldErrors } from '../../../domain/src/validation/fields';
import { getBusinessAssociate } from '../../../projections/src/business-associates/business-associates.queries';
import { listUsers, type UserRecord, type UserSortField } from '../../../projections/src/identity/users.queries';
import { findByUniqueKey, getMasterItem } from '../../../projections/src/masters/masters.queries';
import type { Db } from '../../../projections/src/sql';
import type { BaUser } from '../contract';
import { parseListQuery, sendList } from '../http/simple-rest';
import { accountMessages, blockAccount, registerInvitedAccount, unblockAccount, updateAccount, type AccountDeps } from '../users/accounts';
import { assertSameEmail, emailId, mobileNo, personName } from '../users/fields';
import { baAdminOnly, baCaller, baUserMessages, blockReason, displayStatus, ownUser } from './common';
import { billHubUserRoutes } from './bill-hub';

/**
 * The BA Admin's users (react-admin resource `ba-users`; spec 000 §2 /onboard/BA/add-new-ba-user): the BA
 * Admin adds colleagues with the BA User role on the applications a BA works in, edits and blocks them.
 * Child Bill-Hub users have their own resource (./bill-hub.ts) and are not listed here.
 */
export const baUsersMessages = {
  departmentRequired: 'Please select a department',
  baUserRoleOnly: 'A BA Admin can only give the BA User role',
  applicationNotForBa: 'This application is not available to BA users',
  notVerified: 'Users can be added once your organisation is verified',
} as const;

/** Applications a BA works in; Masters and SAP are the company's own (spec 000 §2, §6). */
export const BA_USER_APPS: readonly AppId[] = ['onboard', 'RFP', 'BillHub', 'Complaint', 'Dashboard'];
const DEFAULT_ACCESS: AppAccess[] = [{ appId: 'onboard', roleName: 'BA User' }];

export const toBaUser = (u: UserRecord): BaUser => ({
  id: u.id,
  baUserName: u.name,
  emailId: u.username,
  mobileNo: u.mobileNo,
  department: u.department,
  appAccess: u.applications,
  baId: u.baId ?? '',
  status: displayStatus(u),
});

/** A department of the Departments master, by name or by its id in /api/departments (resolved below). */
const department = z.union(
  [z.number().int().positive(), z.string().trim().min(1).max(100)],
  { error: baUsersMessages.departmentRequired },
);

/**
 * The department's name as the Departments master holds it, or null when there is no such active department.
 * A user keeps a department that was deactivated since it was given (`current`): only a new choice must be active.
 */
async function departmentName(db: Db, chosen: number | string, current: string | null): Promise<string | null> {
  const id = typeof chosen === 'number' ? chosen : await findByUniqueKey(db, 'departments', ['name'], [normaliseKeyPart(chosen)], null);
  const item = id === null ? null : await getMasterItem(db, 'departments', id);
  const name = typeof item?.['name'] === 'string' ? item['name'] : null;
  return item?.status === 'active' || (name !== null && name === current) ? name : null;
}

/** The body, with its department checked against the masters; every field's message in one answer. */
async function parseUserBody<T extends z.ZodObject<{ department: typeof department }>>(
  db: Db,
  schema: T,
  body: unknown,
  current: string | null = null,
): Promise<z.output<T> & { department: string }> {
  const parsed = schema.safeParse(body ?? {});
  const errors = parsed.success ? {} : fieldErrors(parsed.error);
  const chosen = department.safeParse((body as { department?: unknown } | null)?.department);
  const name = chosen.success ? await departmentName(db, chosen.data, current) : null;
  if (name === null) errors.department ??= baUsersMessages.departmentRequired;
  if (!parsed.success || name === null) throw new DomainError('validation', accountMessages.invalid, errors);
  return { ...parsed.data, department: name };
}

/** Roles per application, restricted to BA User on a BA's applications; none given = onboarding only. */
const appAccess = z
  .array(z.object({ appId: z.string(), roleName: z.string().optional() }))
  .max(20)
  .nullish()
  .superRefine((items, ctx) => {
    (items ?? []).forEach((a, i) => {
      if (!(BA_USER_APPS as readonly string[]).includes(a.appId))
        ctx.addIssue({ code: 'custom', path: [i, 'appId'], message: baUsersMessages.applicationNotForBa });
      if (a.roleName !== undefined && a.roleName !== 'BA User')
        ctx.addIssue({ code: 'custom', path: [i, 'roleName'], message: baUsersMessages.baUserRoleOnly });
    });
  })
  .transform((items): AppAccess[] =>
    items && items.length > 0 ? items.map((a) => ({ appId: a.appId as AppId, roleName: 'BA User' })) : DEFAULT_ACCESS,
  );

const createBody = z.object({ name: personName, emailId, mobileNo, department, appAccess });
const updateBody = z.object({ name: personName, mobileNo, department, appAccess });

const filter = z
  .object({
    q: z.string().trim().max(100),
    status: z.enum(['Active', 'Blocked', 'active', 'blocked']),
    id: z.union([z.string().max(100), z.array(z.string().max(100)).max(100)]),
  })
  .partial()
  .strict();

const SORT_FIELDS = ['baUserName', 'name', 'emailId', 'createdAt', 'status'] as const;
const sortColumn: Record<(typeof SORT_FIELDS)[number], UserSortField> = {
  baUserName: 'name',
  name: 'name',
  emailId: 'username',
  createdAt: 'createdAt',
  status: 'status',
};

const isBaColleague = (u: UserRecord) => u.billHubStateId === null;

export function baUserRoutes(deps: AccountDeps): Router {
  const router = Router();
  const baAdmin = baAdminOnly();

  router.get('/ba-users', baAdmin, async (req, res) => {
    const { baId } = baCaller(res);
    const { sort, range, filter: f } = parseListQuery(req.query, {
      sortFields: SORT_FIELDS,
      defaultSort: { field: 'baUserName', order: 'ASC' },
      filter,
    });
    const { rows, total } = await listUsers(deps.pool, {
      kind: 'ba',
      baId,
      billHub: false,
      status: f.status === undefined ? undefined : f.status.toLowerCase() === 'blocked' ? 'blocked' : 'active',
      q: f.q,
      ids: f.id === undefined ? undefined : Array.isArray(f.id) ? f.id : [f.id],
      sort: { field: sortColumn[sort.field], order: sort.order },
      range,
    });
    sendList(res, 'ba-users', range, rows.map(toBaUser), total);
  });

  router.get('/ba-users/:id', baAdmin, async (req, res) => {
    res.json(toBaUser(await ownUser(deps, req, baCaller(res), isBaColleague)));
  });

  router.post('/ba-users', baAdmin, async (req, res) => {
    const caller = baCaller(res);
    const body = await parseUserBody(deps.pool, createBody, req.body);
    // Spec 000 §2 header: "Add New User (verified BA admins only)".
    const ba = await getBusinessAssociate(deps.pool, caller.baId);
    if (ba?.status !== 'verified') throw new DomainError('rule', baUsersMessages.notVerified);
    const user = await registerInvitedAccount(
      deps,
      {
        name: body.name,
        emailId: body.emailId,
        mobileNo: body.mobileNo,
        department: body.department,
        applications: body.appAccess,
        companyCodes: caller.principal.companyCodes,
        baId: caller.baId,
      },
      caller.actor,
    );
    res.status(201).json(toBaUser(user));
  });

  router.put('/ba-users/:id', baAdmin, async (req, res) => {
    const caller = baCaller(res);
    const user = await ownUser(deps, req, caller, isBaColleague);
    if (user.roles.includes('BA Admin')) throw new DomainError('rule', baUserMessages.adminAccount);
    assertSameEmail(req.body, user.username);
    const body = await parseUserBody(deps.pool, updateBody, req.body, user.department);
    const updated = await updateAccount(
      deps,
      user,
      {
        type: 'UpdateUser',
        name: body.name,
        mobileNo: body.mobileNo,
        department: body.department,
        applications: body.appAccess,
        companyCodes: user.companyCodes,
      },
      caller.actor,
    );
    res.json(toBaUser(updated));
  });

  for (const verb of ['block', 'unblock'] as const) {
    router.post(`/ba-users/:id/${verb}`, baAdmin, async (req, res) => {
      const caller = baCaller(res);
      const user = await ownUser(deps, req, caller, isBaColleague);
      const reason = blockReason(req.body, verb);
      // Blocking oneself is refused by blockAccount with its own message; another admin is not ours to block.
      if (user.id !== caller.principal.userId && user.roles.includes('BA Admin'))
        throw new DomainError('rule', baUserMessages.adminAccount);
      const done = verb === 'block' ? blockAccount(deps, user, reason, caller.actor) : unblockAccount(deps, user, reason, caller.actor);
      res.json(toBaUser(await done));
    });
  }

  router.use(billHubUserRoutes(deps));
  return router;
}
