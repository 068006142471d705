import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { APPLICATIONS, type AppAccess } from '../../../domain/src/identity/applications';
import { ALL_ROLES, AUDITOR_ROLE, isBaRole, isStaffRole, type Role } from '../../../domain/src/identity/roles';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { findUserById, listUsers, type UserRecord, type UserSortField } from '../../../projections/src/identity/users.queries';
import { ALL_COMPANIES, type StaffUser } from '../contract';
import { principalOf, requireAuth, type Principal } from '../http/auth';
import { parseListQuery, sendList } from '../http/simple-rest';
import { blockAccount, registerInvitedAccount, unblockAccount, updateAccount, type AccountDeps } from './accounts';
import { assertSameEmail, emailId, idParam, mobileNo, parseBody, personName, reason } from './fields';

/**
 * Staff accounts (react-admin resource `users`), MLL-ADMIN only. An admin manages the users of its own
 * company codes: it sees staff and auditors holding at least one of them, may give a new user only codes it
 * holds itself, and never touches the codes of a user it does not hold (they stay as they are).
 */
export const usersMessages = {
  notFound: 'User not found',
  staffRolesOnly: 'Only staff roles can be given here: BA users are added by their BA Admin',
  foreignCompanyCode: 'You can only give access to company codes you hold yourself',
  companyCodeRequired: 'Please select at least one company code',
  applicationRequired: 'Please select at least one application and role',
  unknownApplication: 'Unknown application',
  unknownRole: 'Unknown role',
  baUserReadOnly: 'BA users are managed by their BA Admin',
  ownAdminRole: 'You cannot remove your own MLL-ADMIN role',
  reasonRequired: 'Please enter a reason',
} as const;

const ADMIN: readonly Role[] = ['MLL-ADMIN'];
const STAFF_ASSIGNABLE: readonly string[] = [...ALL_ROLES.filter((r) => isStaffRole(r)), AUDITOR_ROLE];

export const toStaffUser = (u: UserRecord): StaffUser => ({
  id: u.id,
  name: u.name,
  emailId: u.username,
  mobileNo: u.mobileNo,
  roles: u.roles,
  applications: u.applications,
  companyCodes: u.companyCodes,
  status: u.status,
  kind: u.kind,
  createdAt: u.createdAt,
});

const applications = z
  .array(z.object({ appId: z.string({ error: usersMessages.unknownApplication }), roleName: z.string({ error: usersMessages.unknownRole }) }), {
    error: usersMessages.applicationRequired,
  })
  .min(1, { error: usersMessages.applicationRequired })
  .max(50)
  .superRefine((items, ctx) => {
    items.forEach((a, i) => {
      if (!(APPLICATIONS as readonly string[]).includes(a.appId))
        ctx.addIssue({ code: 'custom', path: [i, 'appId'], message: usersMessages.unknownApplication });
      if (isBaRole(a.roleName)) ctx.addIssue({ code: 'custom', path: [i, 'roleName'], message: usersMessages.staffRolesOnly });
      else if (!STAFF_ASSIGNABLE.includes(a.roleName))
        ctx.addIssue({ code: 'custom', path: [i, 'roleName'], message: usersMessages.unknownRole });
    });
  })
  .transform((items) => items as AppAccess[]);

const companyCodes = z
  .array(z.string().trim().regex(/^[A-Z0-9]{1,4}$/, { error: 'Company code must be 1-4 letters or digits' }), {
    error: usersMessages.companyCodeRequired,
  })
  .min(1, { error: usersMessages.companyCodeRequired })
  .max(20)
  .transform((codes) => [...new Set(codes)]);

const createBody = z.object({ name: personName, emailId, mobileNo, applications, companyCodes });
const updateBody = z.object({ name: personName, mobileNo, applications, companyCodes });
const reasonBody = z.object({
  reason: reason.refine((v) => v !== undefined && v.trim() !== '', { error: usersMessages.reasonRequired }),
});

const filter = z
  .object({
    q: z.string().trim().max(100),
    status: z.enum(['active', 'blocked']),
    role: z.enum(ALL_ROLES as unknown as [Role, ...Role[]]),
    appId: z.enum(APPLICATIONS),
    companyCode: z.string().trim().max(4),
    kind: z.enum(['staff', 'ba']),
    // react-admin's getMany: filter={"id":[...]}.
    id: z.union([z.string().max(100), z.array(z.string().max(100)).max(100)]),
  })
  .partial()
  .strict();

const SORT_FIELDS = ['name', 'emailId', 'createdAt', 'status', 'kind'] as const;
const sortColumn = (field: (typeof SORT_FIELDS)[number]): UserSortField => (field === 'emailId' ? 'username' : field);

const actorOf = (p: Principal): Actor => ({ userId: p.userId, role: 'MLL-ADMIN', name: p.name });

const holdsAny = (p: Principal, codes: readonly string[]) => codes.some((c) => p.companyCodes.includes(c));

/** The company codes a list is limited to: the active one if the admin chose one, else all of theirs. */
function listCodes(p: Principal, requested: string | undefined): string[] {
  const mine = p.activeCompanyCode && p.activeCompanyCode !== ALL_COMPANIES && p.companyCodes.includes(p.activeCompanyCode)
    ? [p.activeCompanyCode]
    : p.companyCodes;
  if (requested === undefined) return mine;
  return mine.includes(requested) ? [requested] : [];
}

export function userRoutes(deps: AccountDeps): Router {
  const router = Router();
  const admin = requireAuth({ roles: ADMIN, app: 'console' });

  /** A user the admin may see: one holding at least one of the admin's company codes; 404 otherwise. */
  async function visibleUser(req: Request, res: Response): Promise<UserRecord> {
    const id = idParam.safeParse(req.params['id']);
    const user = id.success ? await findUserById(deps.pool, id.data) : null;
    if (!user || !holdsAny(principalOf(res), user.companyCodes))
      throw new DomainError('not_found', usersMessages.notFound);
    return user;
  }

  router.get('/users', admin, async (req, res) => {
    const p = principalOf(res);
    const { sort, range, filter: f } = parseListQuery(req.query, {
      sortFields: SORT_FIELDS,
      defaultSort: { field: 'name', order: 'ASC' },
      filter,
    });
    const codes = listCodes(p, f.companyCode);
    if (codes.length === 0) return sendList(res, 'users', range, [], 0);
    const ids = f.id === undefined ? undefined : Array.isArray(f.id) ? f.id : [f.id];
    const { rows, total } = await listUsers(deps.pool, {
      // getMany asks for records by id, whatever their kind.
      kind: ids ? f.kind : (f.kind ?? 'staff'),
      companyCodes: codes,
      status: f.status,
      role: f.role,
      appId: f.appId,
      q: f.q,
      ids,
      sort: { field: sortColumn(sort.field), order: sort.order },
      range,
    });
    sendList(res, 'users', range, rows.map(toStaffUser), total);
  });

  router.get('/users/:id', admin, async (req, res) => {
    res.json(toStaffUser(await visibleUser(req, res)));
  });

  router.post('/users', admin, async (req, res) => {
    const p = principalOf(res);
    const body = parseBody(createBody, req.body);
    const foreign = body.companyCodes.filter((c) => !p.companyCodes.includes(c));
    if (foreign.length > 0)
      throw new DomainError('forbidden', usersMessages.foreignCompanyCode, { companyCodes: usersMessages.foreignCompanyCode });
    const user = await registerInvitedAccount(
      deps,
      { ...body, baId: null, department: null },
      actorOf(p),
    );
    res.status(201).json(toStaffUser(user));
  });

  router.put('/users/:id', admin, async (req, res) => {
    const p = principalOf(res);
    const user = await visibleUser(req, res);
    if (user.kind === 'ba') throw new DomainError('rule', usersMessages.baUserReadOnly);
    assertSameEmail(req.body, user.username);
    const body = parseBody(updateBody, req.body);
    // Codes the admin does not hold are not theirs to give or take: they stay exactly as they were.
    const foreign = body.companyCodes.filter((c) => !p.companyCodes.includes(c) && !user.companyCodes.includes(c));
    if (foreign.length > 0)
      throw new DomainError('forbidden', usersMessages.foreignCompanyCode, { companyCodes: usersMessages.foreignCompanyCode });
    const codes = [
      ...body.companyCodes.filter((c) => p.companyCodes.includes(c)),
      ...user.companyCodes.filter((c) => !p.companyCodes.includes(c)),
    ];
    if (user.id === p.userId && !body.applications.some((a) => a.roleName === 'MLL-ADMIN'))
      throw new DomainError('rule', usersMessages.ownAdminRole, { applications: usersMessages.ownAdminRole });
    const updated = await updateAccount(
      deps,
      user,
      {
        type: 'UpdateUser',
        name: body.name,
        mobileNo: body.mobileNo,
        department: user.department,
        applications: body.applications,
        companyCodes: codes,
      },
      actorOf(p),
    );
    res.json(toStaffUser(updated));
  });

  router.post('/users/:id/block', admin, async (req, res) => {
    const user = await visibleUser(req, res);
    const { reason } = parseBody(reasonBody, req.body);
    res.json(toStaffUser(await blockAccount(deps, user, reason ?? '', actorOf(principalOf(res)))));
  });

  router.post('/users/:id/unblock', admin, async (req, res) => {
    const user = await visibleUser(req, res);
    const { reason } = parseBody(reasonBody, req.body);
    res.json(toStaffUser(await unblockAccount(deps, user, reason ?? '', actorOf(principalOf(res)))));
  });

  return router;
}
