import express, { type Express } from 'express';
import request from 'supertest';
import { ALL_ROLES, isBaRole, type Role } from '../../domain/src/identity/roles';
import { MASTERS } from '../../domain/src/masters/definitions';
import type { UserRecord } from '../../projections/src/identity/users.queries';
import { publicRoute, requireAuth, type RouteAccess } from '../../api/src/http/auth';
import { startApiHarness, type ApiHarness } from '../../api/src/testing/harness';
import { addBa, addUser, sessionOf, type TestBa } from '../../api/src/users/testing';

/**
 * Every route of the app, called by every kind of caller. A route must declare who may call it
 * (`requireAuth(rule)` or `publicRoute()` as its first handler); the declaration is then held against
 * what the route actually does:
 *
 * - anonymous callers and blocked users (with an access token issued before the block) get 401;
 * - a signed-in caller the rule does not admit (wrong roles or application, or a session that must change
 *   its password first) gets 403;
 * - a caller the rule admits but who belongs to another BA or another company code never gets a 2xx on a
 *   route whose path names BA "A"'s resources.
 *
 * Write routes are called with an empty body: for admitted callers 400/404/409/422 are fine; what must never
 * happen is a 2xx for a caller the declaration does not admit.
 */
jest.setTimeout(300_000);

type Found = { method: string; path: string; access: RouteAccess | undefined };

/** Who each RFP route admits (domain/src/rfp/roles.ts): read is staff, auditors and BAs, each in its own scope. */
const RFP_STAFF_ROLES: Role[] = ['MLL Procurement', 'MLL-ADMIN', 'MLL Commercial', 'MLL Accounts', 'MLL Operations', 'MLL Legal'];
const RFP_ACCESS = {
  read: { app: null, roles: [...RFP_STAFF_ROLES, 'BA Admin', 'BA User', 'Auditor'] },
  staffRead: { app: 'console', roles: [...RFP_STAFF_ROLES, 'Auditor'] },
  staff: { app: 'console', roles: RFP_STAFF_ROLES },
  deciders: { app: 'console', roles: ['MLL Procurement', 'MLL-ADMIN'] },
  bidders: { app: 'portal', roles: ['BA Admin', 'BA User'] },
} as const;
/** Who each Bill-Hub and performance route admits (domain/src/identity/roles.ts INVOICE_COMMERCIAL, INVOICE_ACCOUNTS; issue 11). */
const BILL_HUB_ACCESS = {
  readers: { app: null, roles: [...ALL_ROLES] },
  bas: { app: 'portal', roles: ['BA Admin', 'BA User'] },
  memoBas: { app: null, roles: ['BA Admin', 'BA User'] },
  commercial: { app: 'console', roles: ['MLL Commercial', 'MLL-ADMIN'] },
  accounts: { app: 'console', roles: ['MLL Accounts', 'MLL Accounts_HEAD', 'MLL-ADMIN'] },
  rejecters: { app: 'console', roles: ['MLL Commercial', 'MLL-ADMIN', 'MLL Accounts', 'MLL Accounts_HEAD'] },
  revokers: { app: null, roles: ['BA Admin', 'BA User', 'MLL Accounts', 'MLL Accounts_HEAD', 'MLL-ADMIN'] },
  performance: { app: null, roles: [...ALL_ROLES] },
} as const;
const BILL_HUB_ROUTES: [string, string, keyof typeof BILL_HUB_ACCESS][] = [
  ['GET', '/api/invoices/form-options', 'bas'],
  ['POST', '/api/invoices', 'bas'],
  ['PUT', '/api/invoices/:id', 'bas'],
  ['POST', '/api/invoices/:id/submit', 'bas'],
  ['POST', '/api/invoices/:id/discard', 'bas'],
  ['POST', '/api/invoices/:id/attachments', 'bas'],
  ['DELETE', '/api/invoices/:id/attachments/:attachmentId', 'bas'],
  ['POST', '/api/invoices/:id/acknowledge', 'commercial'],
  ['POST', '/api/invoices/:id/verify', 'commercial'],
  ['POST', '/api/invoices/:id/book', 'accounts'],
  ['POST', '/api/invoices/:id/release', 'accounts'],
  ['POST', '/api/invoices/:id/reject', 'rejecters'],
  ['POST', '/api/invoices/:id/revoke', 'revokers'],
  ['GET', '/api/invoices', 'readers'],
  ['GET', '/api/invoices/:id', 'readers'],
  ['GET', '/api/invoices/:id/attachments/:attachmentId', 'readers'],
  ['POST', '/api/memos', 'memoBas'],
  ['POST', '/api/memos/:id/advances', 'accounts'],
  ['GET', '/api/memos', 'readers'],
  ['GET', '/api/memos/:id', 'readers'],
  ['GET', '/api/memos/:id/pdf', 'readers'],
  ['GET', '/api/home', 'bas'],
  ['GET', '/api/performance/:id', 'performance'],
];
const RFP_ROUTES: [string, string, keyof typeof RFP_ACCESS][] = [
  ['GET', '/api/rfps', 'read'],
  ['POST', '/api/rfps', 'staff'],
  ['GET', '/api/rfps/:code', 'read'],
  ['GET', '/api/rfps/:code/activity', 'staffRead'],
  ['PUT', '/api/rfps/:code/steps/:n', 'staff'],
  ['GET', '/api/rfps/:code/suggested-bas', 'staff'],
  ['GET', '/api/rfps/:code/lanes', 'read'],
  ['POST', '/api/rfps/:code/float', 'staff'],
  ['POST', '/api/rfps/:code/close-bidding', 'deciders'],
  ['POST', '/api/rfps/:code/award', 'deciders'],
  ['POST', '/api/rfps/:code/close', 'deciders'],
  ['POST', '/api/rfps/:code/reopen', 'deciders'],
  ['POST', '/api/rfps/:code/backhaul-invitations', 'staff'],
  ['GET', '/api/rfps/:code/comparison', 'staffRead'],
  ['GET', '/api/rfps/:code/responses/mine', 'bidders'],
  ['PUT', '/api/rfps/:code/responses/mine', 'bidders'],
  ['GET', '/api/rfps/:code/template', 'staffRead'],
  ['POST', '/api/rfps/:code/lanes/upload', 'staff'],
  ['POST', '/api/rfps/:code/terms', 'staff'],
  ['GET', '/api/rfps/:code/terms', 'read'],
  ['GET', '/api/rfps/:code/quote-matrix', 'staffRead'],
  ['GET', '/api/rfps/:code/vehicle-availability', 'staffRead'],
  ['GET', '/api/rfps/:code/bid-template', 'bidders'],
  ['POST', '/api/rfps/:code/bids', 'bidders'],
];

type Layer = {
  route?: { path: string | string[]; methods: Record<string, boolean>; stack: { handle: unknown }[] };
  handle: { stack?: Layer[] };
  rawPath?: string | string[];
};

/** Walks the app's router and the routers mounted in it (api under /api, each capability's router inside). */
function collectRoutes(app: Express): Found[] {
  const found: Found[] = [];
  const join = (prefix: string, path: string) => (path === '/' ? prefix || '/' : `${prefix}${path}`);
  const walk = (stack: readonly Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        const first = layer.route.stack[0]?.handle as { access?: RouteAccess } | undefined;
        for (const method of Object.keys(layer.route.methods).filter((m) => m !== '_all'))
          for (const path of paths) found.push({ method: method.toUpperCase(), path: join(prefix, path), access: first?.access });
      } else if (Array.isArray(layer.handle.stack)) {
        const mount = typeof layer.rawPath === 'string' ? layer.rawPath : '/';
        walk(layer.handle.stack, mount === '/' ? prefix : `${prefix}${mount}`);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return found;
}

type Caller = {
  name: string;
  headers: Record<string, string>;
  anonymous?: boolean;
  blocked?: boolean;
  roles: Role[];
  app: 'console' | 'portal' | null;
  mustChangePassword?: boolean;
  /** Holds roles on the Bill-Hub application only: admitted only to the Bill-Hub area and its own account. */
  billHubOnly?: boolean;
  /** Of another BA or another company code than BA "A": admitted by role, never to A's resources. */
  foreign?: boolean;
};

const admits = (access: Exclude<RouteAccess, 'public'>, c: Caller): boolean =>
  !c.anonymous &&
  !c.blocked &&
  (!c.mustChangePassword || access.allowPasswordChange === true) &&
  (!c.billHubOnly || access.billHub === true || access.allowPasswordChange === true) &&
  (!access.app || access.app === c.app) &&
  (!access.roles || c.roles.some((r) => access.roles?.includes(r)));

let h: ApiHarness;
let routes: Found[];
const callers: Caller[] = [];
/** Path parameter values per resource (the path segment before the parameter): BA "A"'s records. */
const ids: Record<string, string> = {};
/** Resources whose ids are not BA "A"'s (reference data), so foreign callers may read them. */
const UNSCOPED = new Set([
  'states', 'cities', 'services', 'companies', 'ba-departments', 'annexures', 'releases',
  // Customer opportunities in the CRM (RFP wizard step 1): no BA's records, not scoped by company code.
  'opportunities',
  // Every master: reference data, not any BA's.
  ...MASTERS.map((d) => d.resource),
]);

async function caller(name: string, user: UserRecord, extra: Partial<Caller> = {}): Promise<Caller> {
  const session = await sessionOf(h, user);
  const roles = user.roles;
  return { name, headers: session.auth, roles, app: roles.some(isBaRole) ? 'portal' : 'console', ...extra };
}

beforeAll(async () => {
  h = await startApiHarness('route-access');
  routes = collectRoutes(h.app);

  const a: TestBa = await addBa(h, 'a');
  const b: TestBa = await addBa(h, 'b');
  const staff = (role: Role, codes = ['1000'], email = `${role.replace(/[^A-Za-z]/g, '').toLowerCase()}.${codes.join('-')}@route.test`) =>
    addUser(h, { email, roles: [role], companyCodes: codes });

  // One signed-in user per role, all of company code 1000; the BA roles are BA "A"'s.
  const baUserA = await addUser(h, { email: 'user@a.route.test', roles: ['BA User'], baId: a.baId });
  for (const role of ALL_ROLES) {
    if (role === 'BA Admin') callers.push(await caller('BA Admin of A', a.admin));
    else if (role === 'BA User') callers.push(await caller('BA User of A', baUserA));
    else callers.push(await caller(role, await staff(role)));
  }
  // Another BA, and staff of another company code, admitted by role but never to A's records.
  const baUserB = await addUser(h, { email: 'user@b.route.test', roles: ['BA User'], baId: b.baId });
  callers.push(await caller('BA Admin of B', b.admin, { foreign: true }));
  callers.push(await caller('BA User of B', baUserB, { foreign: true }));
  for (const role of ['MLL-ADMIN', 'MLL Procurement', 'MLL Commercial', 'Auditor', 'BA Engagement Manager'] as const)
    callers.push(await caller(`${role} of 2000`, await staff(role, ['2000']), { foreign: true }));
  // A Bill-Hub-only user of BA "A": the Bill-Hub area and its own account, nothing of the onboarding.
  const billHubUser = await addUser(h, {
    email: 'billhub.caller@a.route.test',
    roles: ['BA User'],
    applications: [{ appId: 'BillHub', roleName: 'BA User' }],
    baId: a.baId,
  });
  callers.push(await caller('Bill-Hub-only BA User of A', billHubUser, { billHubOnly: true }));
  // A first sign-in: may only change its password.
  const firstLogin = await addUser(h, { email: 'first.login@route.test', roles: ['MLL-ADMIN'], mustChangePassword: true });
  callers.push(await caller('MLL-ADMIN who must change the password', firstLogin, { mustChangePassword: true }));
  // Blocked after its token was issued (and used, so a cached "active" status is there to be forgotten).
  const doomed = await staff('MLL-ADMIN', ['1000'], 'blocked.admin@route.test');
  const blocked = await caller('blocked MLL-ADMIN', doomed, { blocked: true });
  expect((await request(h.app).get('/api/me').set(blocked.headers)).status).toBe(200);
  const admin = callers.find((c) => c.name === 'MLL-ADMIN');
  const block = await request(h.app).post(`/api/users/${doomed.id}/block`).set(admin?.headers ?? {}).send({ reason: 'Route-access test' });
  expect(block.status).toBe(200);
  callers.push(blocked);
  callers.push({ name: 'anonymous', headers: {}, anonymous: true, roles: [], app: null });
  // Foreign callers go first on each route: a write that wrongly succeeded for them must not be hidden by
  // an admitted caller having made the same change a moment earlier (a second block is refused anyway).
  callers.sort((x, y) => Number(y.foreign ?? false) - Number(x.foreign ?? false));

  // The records the path parameters point at: BA "A", and users of A and of company code 1000 that no
  // caller is (a write that succeeds for an admitted caller changes them, not a caller).
  ids['business-associates'] = a.baId;
  ids['users'] = (await staff('MLL Operations', ['1000'], 'victim.staff@route.test')).id;
  ids['ba-users'] = (await addUser(h, { email: 'victim@a.route.test', roles: ['BA User'], baId: a.baId })).id;
  ids['bill-hub-users'] = (
    await addUser(h, {
      email: 'billhub@a.route.test',
      applications: [{ appId: 'BillHub', roleName: 'BA User' }],
      baId: a.baId,
      billHubStateId: 27,
    })
  ).id;
  Object.assign(ids, { states: '27', cities: '2701', services: '1', companies: '1000' });
  // Release notes belong to no BA or company code; a release id is "<version>-<device>" (none published here: 404).
  ids['releases'] = '1.0.0-web';
  // A seeded opportunity of the harness's sandbox CRM, so admitted callers get a real 200.
  ids['opportunities'] = 'OPP-2026-0001';
  // A PO annexure (every signed-in user's to read, so not BA "A"'s), uploaded as a staff member would.
  const annexure = await request(h.app)
    .post('/api/annexures')
    .set(callers.find((c) => c.name === 'MLL-ADMIN')?.headers ?? {})
    .field('title', 'Route-access annexure')
    .attach('file', Buffer.from('%PDF-1.4\n%%EOF\n'), 'route-access.pdf');
  expect(annexure.status).toBe(201);
  ids['annexures'] = annexure.body.id;
  // An RFP of company code 1000 floated to BA "A" (issue 10), so admitted callers reach a real one.
  ids['rfps'] = await floatedRfp(callers.find((c) => c.name === 'MLL Procurement')?.headers ?? {}, a.baId);
});

/** An RFP created from a seeded opportunity, its lanes uploaded, and floated to `baId`; its code. */
async function floatedRfp(staffHeaders: Record<string, string>, baId: string): Promise<string> {
  const code = `RFP-ROUTE-${process.pid}`;
  const send = (method: 'post' | 'put', url: string, body: object) => request(h.app)[method](url).set(staffHeaders).send(body);
  expect((await send('post', '/api/rfps', { rfpCode: code, casshOppId: 'OPP-2026-0001' })).status).toBe(201);
  const step2 = { vehicleHireType: 1, typeId: 1, rfpType: 'standard', mllProperties: ['fromCity', 'toCity', 'vehicleType'], baProperties: ['ratePerTrip'] };
  expect((await send('put', `/api/rfps/${code}/steps/2`, step2)).status).toBe(200);
  const sheet = Buffer.from('From City,To City,Vehicle Type\nMumbai,Pune,32 FT MXL\n');
  expect((await request(h.app).post(`/api/rfps/${code}/lanes/upload`).set(staffHeaders).attach('file', sheet, 'lanes.csv')).status).toBe(200);
  expect((await send('post', `/api/rfps/${code}/float`, { baIds: [baId], comments: 'Route access', floatToAll: false })).status).toBe(200);
  return code;
}

afterAll(async () => {
  await h?.stop();
});

/** The path with its parameters filled in, and whether it names BA "A"'s records. */
function target(path: string): { url: string; scoped: boolean } {
  let scoped = false;
  const segments = path.split('/');
  const url = segments
    .map((segment, i) => {
      if (!segment.startsWith(':')) return segment;
      const resource = segments.slice(0, i).reverse().find((s) => s !== '' && !s.startsWith(':')) ?? '';
      if (!UNSCOPED.has(resource)) scoped = true;
      // Unknown resources get BA "A"'s id and count as A's: the safe assumption for a new route.
      return encodeURIComponent(ids[resource] ?? ids['business-associates'] ?? 'x');
    })
    .join('/');
  return { url, scoped };
}

async function call(method: string, url: string, headers: Record<string, string>) {
  const req = request(h.app)[method.toLowerCase() as 'get' | 'post' | 'put' | 'delete' | 'patch'](url).set(headers);
  // An event stream never ends by itself: take its status, then hang up.
  if (url.endsWith('/stream'))
    return req.buffer(false).parse((res, done) => {
      done(null, null);
      (res as unknown as { destroy(): void }).destroy();
    });
  return method === 'GET' || method === 'HEAD' ? req : req.send({});
}

describe('route access', () => {
  it('reports a route without a declaration, however deeply its router is mounted', () => {
    const inner = express.Router();
    inner.get('/open', (_req, res) => res.end());
    inner.post('/guarded/:id', requireAuth({ roles: ['MLL-ADMIN'] }), (_req, res) => res.end());
    const outer = express.Router();
    outer.use(inner);
    outer.get('/', publicRoute(), (_req, res) => res.end());
    const app = express();
    app.use('/api', outer);
    expect(collectRoutes(app)).toEqual([
      { method: 'GET', path: '/api/open', access: undefined },
      { method: 'POST', path: '/api/guarded/:id', access: { roles: ['MLL-ADMIN'] } },
      { method: 'GET', path: '/api', access: 'public' },
    ]);
  });

  it('finds the routes of every capability, through the routers mounted under /api', () => {
    const names = routes.map((r) => `${r.method} ${r.path}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'GET /health',
        'GET /api/me',
        'POST /api/auth/login',
        'GET /api/business-associates/:id',
        'POST /api/business-associates/:id/approve',
        'GET /api/users',
        'POST /api/users/:id/block',
        'PUT /api/ba-users/:id',
        'POST /api/bill-hub-users',
        'GET /api/ba-departments',
        // Issue 8: the onboarding items' reads (api/src/onboarding/item-reads.ts).
        'GET /api/business-associates/:id/bank-accounts',
        'GET /api/business-associates/:id/documents/:docId/file',
        'GET /api/business-associates/:id/concessions/:concessionId/file',
        'GET /api/business-associates/:id/duplicates',
        'GET /api/business-associates/:id/company-codes',
        'GET /api/additional-documents',
        // Issue 8: change requests of a verified BA (api/src/onboarding/change-requests.ts).
        'GET /api/business-associates/:id/change-requests',
        'GET /api/business-associates/:id/change-requests/:requestId',
        'POST /api/business-associates/:id/change-requests',
        'POST /api/business-associates/:id/change-requests/:requestId/approve',
        'POST /api/business-associates/:id/change-requests/:requestId/reject',
        // Issue 10: the CRM's opportunities for the RFP wizard (api/src/opportunities/routes.ts).
        'GET /api/opportunities',
        'GET /api/opportunities/:id',
        // Issue 10: the RFP routes (api/src/rfp/).
        ...RFP_ROUTES.map(([method, path]) => `${method} ${path}`),
      ]),
    );
  });

  it('every route declares who may call it (requireAuth or publicRoute first)', () => {
    const undeclared = routes.filter((r) => r.access === undefined).map((r) => `${r.method} ${r.path}`);
    expect(undeclared).toEqual([]);
  });

  it('answers each caller as the route’s declaration says: 401, 403, never a 2xx it does not grant', async () => {
    const violations: string[] = [];
    const refused = { unauthenticated: 0, forbidden: 0, foreign: 0 };
    for (const route of routes) {
      if (route.access === undefined || route.access === 'public') continue;
      const access = route.access;
      const { url, scoped } = target(route.path);
      for (const c of callers) {
        const res = await call(route.method, url, c.headers);
        const where = `${route.method} ${route.path} as ${c.name}: ${res.status}`;
        const ok = res.status >= 200 && res.status < 300;
        if (c.anonymous || c.blocked) {
          refused.unauthenticated += 1;
          if (res.status !== 401) violations.push(`${where} (expected 401)`);
        } else if (!admits(access, c)) {
          refused.forbidden += 1;
          if (res.status !== 403) violations.push(`${where} (expected 403)`);
        } else if (c.foreign && scoped) {
          refused.foreign += 1;
          if (ok) violations.push(`${where} (a record of BA "A" reached from another BA or company code)`);
        }
      }
    }
    expect(violations).toEqual([]);
    // The walk reached the guarded routes: each kind of refusal was actually exercised.
    expect(refused.unauthenticated).toBeGreaterThan(20);
    expect(refused.forbidden).toBeGreaterThan(100);
    expect(refused.foreign).toBeGreaterThan(10);
  });

  it('opportunities: the staff roles that use RFPs, console only; every other role and BAs refused', () => {
    const rfpStaff: Role[] = ['MLL Procurement', 'MLL-ADMIN', 'MLL Commercial', 'MLL Accounts', 'MLL Operations', 'MLL Legal'];
    for (const path of ['/api/opportunities', '/api/opportunities/:id']) {
      const access = routes.find((r) => r.method === 'GET' && r.path === path)?.access;
      expect(access).toEqual({ roles: expect.arrayContaining(rfpStaff), app: 'console' });
      expect(access === 'public' ? [] : [...(access?.roles ?? [])].sort()).toEqual([...rfpStaff].sort());
    }
  });

  it('RFPs: staff routes for the RFP staff roles in the console, decisions for the deciders, bids for BAs in the portal', () => {
    const sorted = (roles: readonly string[]) => [...roles].sort();
    for (const [method, path, who] of RFP_ROUTES) {
      const access = routes.find((r) => r.method === method && r.path === path)?.access;
      if (access === undefined || access === 'public') throw new Error(`${method} ${path} declares no access`);
      expect([method, path, access.app ?? null, sorted(access.roles ?? [])]).toEqual([method, path, RFP_ACCESS[who].app, sorted(RFP_ACCESS[who].roles)]);
    }
  });

  it('Bill-Hub and performance: BAs file invoices and memos in the portal, commercial and accounts staff decide in the console, readers in their scope', () => {
    const sorted = (roles: readonly string[]) => [...roles].sort();
    for (const [method, path, who] of BILL_HUB_ROUTES) {
      const access = routes.find((r) => r.method === method && r.path === path)?.access;
      if (access === undefined || access === 'public') throw new Error(`${method} ${path} declares no access`);
      expect([method, path, access.app ?? null, sorted(access.roles ?? [])]).toEqual([method, path, BILL_HUB_ACCESS[who].app, sorted(BILL_HUB_ACCESS[who].roles)]);
    }
  });

  it('no route fails with a server error for any caller', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const { url } = target(route.path);
      const who = route.access === 'public' ? callers.filter((c) => c.anonymous) : callers;
      for (const c of who) {
        const res = await call(route.method, url, c.headers);
        if (res.status >= 500) failures.push(`${route.method} ${route.path} as ${c.name}: ${res.status} ${res.body?.message ?? ''}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
