import { randomUUID } from 'node:crypto';
import type { AppAccess } from '../../../domain/src/identity/applications';
import type { Role } from '../../../domain/src/identity/roles';
import { userIdForUsername } from '../../../domain/src/identity/users';
import type { CompanyDetailsInput } from '../../../domain/src/onboarding/details';
import type { Actor } from '../../../domain/src/shared/events';
import { waitForProjections } from '../../../projections/src/runner';
import { findUserById, type UserRecord } from '../../../projections/src/identity/users.queries';
import { sendOnboardingAction, startOnboarding, type OnboardingAction } from '../../../workflows/src/onboarding/client';
import { approveEveryItem, fillEveryTab } from '../../../workflows/src/onboarding/scenarios';
import { refreshCookieName } from '../http/auth';
import { issueSession } from '../identity/sessions';
import { testCredential } from '../identity/testing';
import { runUserCommand } from '../identity/user-commands';
import type { ApiHarness } from '../testing/harness';

/**
 * Test-only set-up for the user-management and route-access tests: accounts registered through the user
 * decider (no demo seed), BAs through their real workflow, and sessions issued with the app's own keys so
 * a test needs no sign-in code round trip.
 */
export const TEST_PASSWORD = 'Demo@2026';
const SETUP: Actor = { userId: 'test-setup', role: 'system', name: 'Test set-up' };

let mobiles = 0;
/** A distinct valid mobile number per call (the users read model refuses none, the API does). */
export const nextMobile = (): string => `9${String(700_000_000 + process.pid * 1000 + (mobiles += 1)).slice(-9)}`;

export type TestUser = {
  email: string;
  name?: string;
  roles?: Role[];
  applications?: AppAccess[];
  companyCodes?: string[];
  baId?: string | null;
  mobileNo?: string;
  department?: string | null;
  mustChangePassword?: boolean;
  billHubStateId?: number;
};

export async function addUser(h: ApiHarness, u: TestUser): Promise<UserRecord> {
  const userId = userIdForUsername(u.email);
  const applications = u.applications ?? (u.roles ?? ['MLL Procurement']).map((roleName) => ({ appId: 'onboard' as const, roleName }));
  await runUserCommand(
    { pool: h.db.pool, store: h.store },
    userId,
    {
      type: 'RegisterUser',
      userId,
      username: u.email,
      name: u.name ?? 'Test User',
      credentialId: await testCredential(h.db.pool, userId, TEST_PASSWORD),
      roles: [],
      applications,
      companyCodes: u.companyCodes ?? ['1000'],
      baId: u.baId ?? null,
      mobileNo: u.mobileNo ?? nextMobile(),
      department: u.department ?? null,
      mustChangePassword: u.mustChangePassword ?? false,
      ...(u.billHubStateId ? { billHubStateId: u.billHubStateId } : {}),
    },
    { actor: SETUP },
  );
  const user = await findUserById(h.db.pool, userId);
  if (!user) throw new Error(`${u.email} did not reach the users read model`);
  return user;
}

/** A signed-in session of the user: the bearer token and the refresh cookie, as a sign-in would give. */
export async function sessionOf(h: ApiHarness, user: UserRecord): Promise<{ token: string; cookie: string; auth: { Authorization: string } }> {
  const session = await issueSession({ pool: h.db.pool, auth: h.auth }, user);
  const token = session.body.accessToken;
  return { token, cookie: `${refreshCookieName(session.app)}=${session.refreshToken}`, auth: { Authorization: `Bearer ${token}` } };
}

export const details = (over: Partial<CompanyDetailsInput> = {}): CompanyDetailsInput => ({
  companyName: 'Test Roadways Private Limited',
  panNumber: 'AAHCT4821K',
  contactPersonName: 'Test Person',
  serviceId: 1,
  stateId: 27,
  cityId: 2701,
  addressLine1: '1 Test Road',
  pinCode: '400001',
  contactPersonMobileNumber: '9876543210',
  ...over,
});

export type TestBa = { baId: string; companyCode: string; admin: UserRecord };

/**
 * A BA through its real lifecycle (so the onboarding routes find its workflow), with its BA Admin; a
 * verified one is saved, submitted and approved in both stages by two different staff actors.
 */
export async function addBa(h: ApiHarness, key: string, options: { companyCode?: string; verified?: boolean } = {}): Promise<TestBa> {
  const baId = `ba-${key}-${randomUUID().slice(0, 8)}`;
  const companyCode = options.companyCode ?? '1000';
  const email = `${key}.admin@${baId}.test`;
  const mobileNo = nextMobile();
  await startOnboarding(h.temporal, h.taskQueue, {
    baId,
    companyCode,
    adminUserId: userIdForUsername(email),
    mobileNo,
    email,
    actor: SETUP,
    correlationId: baId,
    requestId: `${baId}:start`,
  });
  const admin = await addUser(h, {
    email,
    name: `Admin of ${key}`,
    applications: (['onboard', 'RFP', 'BillHub', 'Dashboard'] as const).map((appId) => ({ appId, roleName: 'BA Admin' })),
    companyCodes: [companyCode],
    baId,
    mobileNo,
  });
  if (options.verified) {
    const baActor: Actor = { userId: admin.id, role: 'BA Admin', name: admin.name };
    const procurement: Actor = { userId: 'test-procurement', role: 'MLL Procurement', name: 'P' };
    const send = (action: OnboardingAction, actor: Actor, step: string) =>
      sendOnboardingAction(h.temporal, baId, action, { actor, requestId: `${baId}:${step}` });
    const saved = details();
    await send({ kind: 'saveDetails', details: saved }, baActor, 'save');
    // Issue 8: a submission needs every tab, stage 1 every item approved (workflows/src/onboarding/scenarios.ts).
    const tabs = await fillEveryTab(h.temporal, baId, baActor, { gst: { gstNo: `27${saved.panNumber}1Z5` } });
    await send({ kind: 'submit' }, baActor, 'submit');
    await approveEveryItem(h.temporal, baId, tabs, procurement);
    await send({ kind: 'approve', stage: 1 }, procurement, 'stage-1');
    const r = await send({ kind: 'approve', stage: 2 }, { userId: 'test-commercial', role: 'MLL Commercial', name: 'C' }, 'stage-2');
    const position = r.lastGlobalPosition;
    await waitForProjections(h.db.pool, position, { timeoutMs: 10_000 });
  } else {
    await waitForProjections(h.db.pool, await h.store.headPosition(), { timeoutMs: 10_000 });
  }
  return { baId, companyCode, admin };
}

/** The newest outbox message of `template` to `to`. */
export async function lastMessage(h: ApiHarness, to: string, template: string): Promise<{ subject: string | null; body: string } | null> {
  const { rows } = await h.db.pool.query<{ subject: string | null; body: string }>(
    'SELECT subject, body FROM outbox WHERE lower(recipient) = lower($1) AND template = $2 ORDER BY created_at DESC, seq DESC LIMIT 1',
    [to, template],
  );
  return rows[0] ?? null;
}
