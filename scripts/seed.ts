import { Client, Connection } from '@temporalio/client';
import type { Pool } from 'pg';
import { v5 as uuidv5 } from 'uuid';
import { hashPassword } from '../api/src/identity/password';
import { handleCommand } from '../domain/src/event-store/handle-command';
import { ConcurrencyError, type EventStore } from '../domain/src/event-store/port';
import { SYSTEM_ROLE, type Role } from '../domain/src/identity/roles';
import type { AppAccess } from '../domain/src/identity/applications';
import { userDecider, userIdForUsername, userStreamId, type UserCommand } from '../domain/src/identity/users';
import {
  baStreamId,
  evolve,
  initialState,
  type OnboardingEvent,
  type OnboardingState,
} from '../domain/src/onboarding';
import type { CompanyDetailsInput } from '../domain/src/onboarding/details';
import { DomainError } from '../domain/src/shared/errors';
import type { Actor } from '../domain/src/shared/events';
import { waitForProjections } from '../projections/src/runner';
import { sendOnboardingAction, startOnboarding, type OnboardingAction } from '../workflows/src/onboarding/client';

/**
 * Demo data for a first start, sent through the same commands and workflows as real use (never written into
 * read-model tables). Idempotent: users and BAs that exist are skipped, and a BA is only moved forward from
 * where its event stream says it stands, so an interrupted seed finishes on the next start.
 */
export const DEMO_PASSWORD = 'Demo@2026';

type DemoUser = {
  username: string;
  name: string;
  roles: Role[];
  companyCodes: string[];
  baId: string | null;
  /** Sign-in codes go to this mobile by SMS (and to the e-mail): the dev outbox shows both. */
  mobileNo: string;
  /** Roles per application; without it each role is held on the onboarding application. */
  applications?: AppAccess[];
  department?: string;
  /** A Bill-Hub-only user holds the GST state it bills for. */
  billHubStateId?: number;
  /** A demo account that has been blocked, so the Users screens show one (it cannot sign in). */
  blockedReason?: string;
};

type Target =
  | { status: 'pending'; details: 'none' | 'partial' | 'full' }
  | { status: 'inprogress'; stage: 1 | 2 }
  | { status: 'verified' }
  | { status: 'rejected'; stage: 1 | 2; remarks: string };

export type DemoBa = {
  key: string;
  baId: string;
  companyCode: '1000' | '2000';
  admin: { username: string; name: string; mobile: string };
  details: CompanyDetailsInput;
  target: Target;
};

const BA_NAMESPACE = '5d0f7c1e-2b8a-4e57-9c3d-7a61f0b2c4e8';
export const demoBaId = (key: string): string => uuidv5(`demo-ba:${key}`, BA_NAMESPACE);

/** A demo BA as written below: its admin is its contact person, who signs in with `username`. */
type DemoBaSpec = Omit<DemoBa, 'baId' | 'admin' | 'details'> & {
  username: string;
  details: CompanyDetailsInput & { contactPersonName: string; contactPersonMobileNumber: string };
};

const demoBa = ({ key, companyCode, username, details, target }: DemoBaSpec): DemoBa => ({
  key,
  baId: demoBaId(key),
  companyCode,
  admin: { username, name: details.contactPersonName, mobile: details.contactPersonMobileNumber },
  details,
  target,
});

/** Company-code '1000' holds ba.admin's BA and the demo staff; '2000' is out of their reach. */
export const DEMO_BAS: readonly DemoBa[] = [
  demoBa({
    key: 'sahyadri',
    companyCode: '1000',
    username: 'ba.admin@demo.test',
    details: {
      companyName: 'Sahyadri Roadways Private Limited',
      panNumber: 'AAHCS4821K',
      contactPersonName: 'Ganesh Patil',
      cinNumber: 'U60231MH2014PTC254871',
      serviceId: 1,
      stateId: 27,
      cityId: 2702,
      addressLine1: 'Plot 14, Bhosari MIDC',
      addressLine2: 'Pimpri-Chinchwad',
      pinCode: '411026',
      companyLandline: '020 2712 4455',
      contactPersonMobileNumber: '9822012345',
      ownFleet: 18,
      attachedFleet: 40,
    },
    target: { status: 'pending', details: 'partial' },
  }),
  demoBa({
    key: 'konkan',
    companyCode: '1000',
    username: 'ba.2@demo.test',
    details: {
      companyName: 'Konkan Cargo Movers Private Limited',
      panNumber: 'AABCK7310L',
      contactPersonName: 'Sameer Naik',
      cinNumber: 'U60232MH2011PTC219034',
      serviceId: 1,
      stateId: 27,
      cityId: 2701,
      addressLine1: '3rd Floor, Transport Bhavan, Wadala Truck Terminal',
      addressLine2: null,
      pinCode: '400037',
      companyLandline: '022 2414 7788',
      contactPersonMobileNumber: '9820456781',
      ownFleet: 32,
      attachedFleet: 75,
    },
    target: { status: 'pending', details: 'none' },
  }),
  demoBa({
    key: 'deccan',
    companyCode: '1000',
    username: 'ba.3@demo.test',
    details: {
      companyName: 'Deccan Fleet Logistics Private Limited',
      panNumber: 'AAFCD2956M',
      contactPersonName: 'Anjali Kulkarni',
      cinNumber: 'U63090MH2016PTC283310',
      serviceId: 2,
      stateId: 27,
      cityId: 2702,
      addressLine1: 'Survey No. 58, Chakan Industrial Area',
      addressLine2: 'Khed Taluka',
      pinCode: '410501',
      companyLandline: null,
      contactPersonMobileNumber: '9881203344',
      ownFleet: 12,
      attachedFleet: 20,
    },
    target: { status: 'inprogress', stage: 1 },
  }),
  demoBa({
    key: 'vidarbha',
    companyCode: '1000',
    username: 'ba.4@demo.test',
    details: {
      companyName: 'Vidarbha Transport Company Private Limited',
      panNumber: 'AAGCV6402P',
      contactPersonName: 'Nitin Deshmukh',
      cinNumber: null,
      serviceId: 1,
      stateId: 27,
      cityId: 2703,
      addressLine1: 'Plot 7, Hingna MIDC',
      addressLine2: null,
      pinCode: '440016',
      companyLandline: '0712 255 3021',
      contactPersonMobileNumber: '9823067712',
      ownFleet: 45,
      attachedFleet: 110,
    },
    target: { status: 'inprogress', stage: 1 },
  }),
  demoBa({
    key: 'cauvery',
    companyCode: '1000',
    username: 'ba.5@demo.test',
    details: {
      companyName: 'Cauvery Freight Carriers Private Limited',
      panNumber: 'AADCC8813Q',
      contactPersonName: 'Kiran Gowda',
      cinNumber: 'U60221KA2013PTC069871',
      serviceId: 3,
      stateId: 29,
      cityId: 2901,
      addressLine1: '12, Peenya Industrial Area Phase 2',
      addressLine2: null,
      pinCode: '560058',
      companyLandline: '080 2839 4410',
      contactPersonMobileNumber: '9845011223',
      ownFleet: 22,
      attachedFleet: 58,
    },
    target: { status: 'inprogress', stage: 2 },
  }),
  demoBa({
    key: 'coromandel',
    companyCode: '1000',
    username: 'ba.6@demo.test',
    details: {
      companyName: 'Coromandel Warehousing Private Limited',
      panNumber: 'AAJCC3370R',
      contactPersonName: 'Lakshmi Narayanan',
      cinNumber: 'U63023TN2009PTC072215',
      serviceId: 2,
      stateId: 33,
      cityId: 3301,
      addressLine1: '45, GST Road, Guindy',
      addressLine2: 'Near Kathipara Junction',
      pinCode: '600032',
      companyLandline: '044 2234 5566',
      contactPersonMobileNumber: '9840122334',
      ownFleet: 8,
      attachedFleet: 15,
    },
    target: { status: 'verified' },
  }),
  demoBa({
    key: 'sabarmati',
    companyCode: '1000',
    username: 'ba.7@demo.test',
    details: {
      companyName: 'Sabarmati Express Logistics Private Limited',
      panNumber: 'AAECS5128H',
      contactPersonName: 'Hardik Patel',
      cinNumber: 'U60230GJ2015PTC084512',
      serviceId: 4,
      stateId: 24,
      cityId: 2401,
      addressLine1: 'B-204, Narol Logistics Park',
      addressLine2: null,
      pinCode: '382405',
      companyLandline: null,
      contactPersonMobileNumber: '9825098765',
      ownFleet: 60,
      attachedFleet: 25,
    },
    target: {
      status: 'rejected',
      stage: 1,
      remarks: 'PAN card copy does not match the company name. Please correct the company name as per PAN and resubmit.',
    },
  }),
  demoBa({
    key: 'hooghly',
    companyCode: '2000',
    username: 'ba.8@demo.test',
    details: {
      companyName: 'Hooghly Shipping Agencies Private Limited',
      panNumber: 'AAKCH9041N',
      contactPersonName: 'Subhash Banerjee',
      cinNumber: 'U61100WB2008PTC124578',
      serviceId: 3,
      stateId: 19,
      cityId: 1901,
      addressLine1: '22, Strand Road, Fairlie Place',
      addressLine2: null,
      pinCode: '700001',
      companyLandline: '033 2230 1188',
      contactPersonMobileNumber: '9830045566',
      ownFleet: 10,
      attachedFleet: 35,
    },
    target: { status: 'pending', details: 'full' },
  }),
  demoBa({
    key: 'indraprastha',
    companyCode: '2000',
    username: 'ba.9@demo.test',
    details: {
      companyName: 'Indraprastha Last Mile Private Limited',
      panNumber: 'AALCI1187B',
      contactPersonName: 'Amit Chauhan',
      cinNumber: 'U74999DL2018PTC334521',
      serviceId: 4,
      stateId: 7,
      cityId: 701,
      addressLine1: 'A-31, Okhla Industrial Area Phase 1',
      addressLine2: null,
      pinCode: '110020',
      companyLandline: '011 4105 6677',
      contactPersonMobileNumber: '9811023456',
      ownFleet: 150,
      attachedFleet: 300,
    },
    target: { status: 'inprogress', stage: 1 },
  }),
  demoBa({
    key: 'kovai',
    companyCode: '2000',
    username: 'ba.10@demo.test',
    details: {
      companyName: 'Kovai Movers Private Limited',
      panNumber: 'AAMCK6650D',
      contactPersonName: 'Senthil Kumar',
      cinNumber: 'U60210TN2012PTC018765',
      serviceId: 1,
      stateId: 33,
      cityId: 3302,
      addressLine1: '118, Avinashi Road, Peelamedu',
      addressLine2: null,
      pinCode: '641004',
      companyLandline: null,
      contactPersonMobileNumber: '9842233445',
      ownFleet: 27,
      attachedFleet: 44,
    },
    target: { status: 'verified' },
  }),
  demoBa({
    key: 'surat',
    companyCode: '2000',
    username: 'ba.11@demo.test',
    details: {
      companyName: 'Surat Textile Transport Private Limited',
      panNumber: 'AANCS2209E',
      contactPersonName: 'Bhavesh Shah',
      cinNumber: 'U60231GJ2010PTC061234',
      serviceId: 1,
      stateId: 24,
      cityId: 2402,
      addressLine1: 'Shop 9, Ring Road Textile Market',
      addressLine2: 'Salabatpura',
      pinCode: '395002',
      companyLandline: '0261 242 3344',
      contactPersonMobileNumber: '9824011122',
      ownFleet: 14,
      attachedFleet: 90,
    },
    target: {
      status: 'rejected',
      stage: 2,
      remarks: 'Commercial terms not agreed: fleet capacity declared is below the lane requirement. Please revise and resubmit.',
    },
  }),
];

/** Staff per company code: stage 1 by procurement, stage 2 by commercial, so nobody decides both stages. */
const onApps = (roleName: Role, apps: AppAccess['appId'][]): AppAccess[] => apps.map((appId) => ({ appId, roleName }));
export const DEMO_STAFF: readonly DemoUser[] = [
  {
    username: 'procurement@demo.test',
    name: 'Priya Sharma',
    roles: ['MLL Procurement'],
    applications: onApps('MLL Procurement', ['onboard', 'RFP']),
    companyCodes: ['1000'],
    baId: null,
    mobileNo: '9820010001',
  },
  {
    username: 'commercial@demo.test',
    name: 'Rahul Mehta',
    roles: ['MLL Commercial'],
    applications: onApps('MLL Commercial', ['onboard', 'RFP', 'BillHub']),
    companyCodes: ['1000'],
    baId: null,
    mobileNo: '9820010002',
  },
  {
    username: 'admin@demo.test',
    name: 'Anil Kumar',
    roles: ['MLL-ADMIN'],
    applications: onApps('MLL-ADMIN', ['onboard', 'RFP', 'BillHub', 'SAP', 'Masters', 'Dashboard']),
    companyCodes: ['1000'],
    baId: null,
    mobileNo: '9820010003',
  },
  { username: 'auditor@demo.test', name: 'Sunita Rao', roles: ['Auditor'], companyCodes: ['1000'], baId: null, mobileNo: '9820010004' },
  {
    username: 'procurement.2000@demo.test',
    name: 'Vikram Singh',
    roles: ['MLL Procurement'],
    companyCodes: ['2000'],
    baId: null,
    mobileNo: '9820010005',
  },
  {
    username: 'commercial.2000@demo.test',
    name: 'Meera Iyer',
    roles: ['MLL Commercial'],
    companyCodes: ['2000'],
    baId: null,
    mobileNo: '9820010006',
  },
  // Holds both company codes, so the header's company selector has something to switch between.
  {
    username: 'engagement@demo.test',
    name: 'Kavita Nair',
    roles: ['BA Engagement Manager'],
    companyCodes: ['1000', '2000'],
    baId: null,
    mobileNo: '9820010007',
  },
  {
    username: 'former.staff@demo.test',
    name: 'Deepak Joshi',
    roles: ['MLL Operations'],
    companyCodes: ['1000'],
    baId: null,
    mobileNo: '9820010008',
    blockedReason: 'Left the company in October 2026',
  },
];

/**
 * A verified demo BA (users may be added once a BA is verified) has a colleague and a Bill-Hub user for its
 * GST state, so the BA users and Bill-Hub users screens are not empty.
 */
const coromandel = (): DemoBa => DEMO_BAS.find((b) => b.key === 'coromandel') as DemoBa;

export const DEMO_USERS: readonly DemoUser[] = [
  ...DEMO_STAFF,
  ...DEMO_BAS.map((b) => ({
    username: b.admin.username,
    name: b.admin.name,
    roles: ['BA Admin'] as Role[],
    applications: onApps('BA Admin', ['onboard', 'RFP', 'BillHub', 'Dashboard']),
    companyCodes: [b.companyCode],
    baId: b.baId,
    mobileNo: b.admin.mobile,
  })),
  {
    username: 'ba.user@demo.test',
    name: 'Sneha Kulkarni',
    roles: ['BA User'],
    applications: onApps('BA User', ['onboard', 'RFP']),
    companyCodes: [coromandel().companyCode],
    baId: coromandel().baId,
    mobileNo: '9890011122',
    department: 'Operations',
  },
  {
    username: 'billhub.tn@demo.test',
    name: 'Arun Prakash',
    roles: ['BA User'],
    applications: onApps('BA User', ['BillHub']),
    companyCodes: [coromandel().companyCode],
    baId: coromandel().baId,
    mobileNo: '9890011123',
    billHubStateId: 33,
  },
];

/** The logins the supervisor prints (the first five are the ones the issue names). */
export const DEMO_LOGINS: readonly { username: string; role: string }[] = [
  { username: 'ba.admin@demo.test', role: 'BA Admin (company details not yet submitted)' },
  { username: 'procurement@demo.test', role: 'MLL Procurement (stage 1 reviews, company code 1000)' },
  { username: 'commercial@demo.test', role: 'MLL Commercial (stage 2 reviews, company code 1000)' },
  { username: 'admin@demo.test', role: 'MLL-ADMIN (company code 1000)' },
  { username: 'auditor@demo.test', role: 'Auditor (read-only: activity logs and event history)' },
  { username: 'engagement@demo.test', role: 'BA Engagement Manager (company codes 1000 and 2000)' },
  { username: 'ba.6@demo.test', role: 'BA Admin of a verified BA (add users, Bill-Hub users)' },
  { username: 'ba.user@demo.test', role: 'BA User (a colleague of ba.6)' },
];

const SEED_ACTOR: Actor = { userId: 'seed', role: SYSTEM_ROLE, name: 'Demo seed' };

export type SeedDeps = {
  pool: Pool;
  store: EventStore;
  temporal: Client;
  taskQueue: string;
  log?: (line: string) => void;
  /** How long to wait for the projector to show the seeded data (login needs the users read model). */
  projectionTimeoutMs?: number;
  /** Review SLA for the demo lifecycles (the configured one). */
  reviewSlaMs?: number;
};

export type SeedResult = { usersCreated: number; basCreated: number; actions: number };

async function registerUser(store: EventStore, user: DemoUser): Promise<boolean> {
  const userId = userIdForUsername(user.username);
  const streamId = userStreamId(userId);
  const existing = await store.readStream(streamId);
  let created = false;
  if (existing.length === 0) {
    created = await runSeedUserCommand(store, user, `seed:user:${user.username}`, {
      type: 'RegisterUser',
      userId,
      username: user.username,
      name: user.name,
      passwordHash: await hashPassword(DEMO_PASSWORD),
      roles: user.roles,
      companyCodes: user.companyCodes,
      baId: user.baId,
      mobileNo: user.mobileNo,
      department: user.department ?? null,
      applications: user.applications,
      ...(user.billHubStateId === undefined ? {} : { billHubStateId: user.billHubStateId }),
    });
  }
  // Only a user the seed itself just created is blocked: an account a person has used is left alone.
  if (created && user.blockedReason)
    await runSeedUserCommand(store, user, `seed:user:${user.username}:block`, { type: 'BlockUser', reason: user.blockedReason });
  return created;
}

async function runSeedUserCommand(store: EventStore, user: DemoUser, commandId: string, command: UserCommand): Promise<boolean> {
  try {
    await handleCommand(store, userStreamId(userIdForUsername(user.username)), userDecider, command, {
      commandId,
      actor: SEED_ACTOR,
      at: new Date().toISOString(),
      companyCode: user.companyCodes[0] ?? null,
      correlationId: `seed:user:${user.username}`,
      causationId: null,
      workflowId: null,
      requestId: null,
    });
    return true;
  } catch (e) {
    // Another seeder (a second start) did it a moment ago: that is the outcome we wanted.
    if (e instanceof ConcurrencyError || (e instanceof DomainError && (e.code === 'conflict' || e.code === 'rule'))) return false;
    throw e;
  }
}

async function baState(store: EventStore, baId: string): Promise<OnboardingState> {
  const events = await store.readStream(baStreamId(baId));
  return events.reduce((s, e) => evolve(s, { type: e.type, data: e.data } as OnboardingEvent), initialState);
}

type Step = { name: string; action: OnboardingAction; actor: Actor };

function staffActor(companyCode: string, stage: 1 | 2): Actor {
  const role = stage === 1 ? 'MLL Procurement' : 'MLL Commercial';
  const staff = DEMO_STAFF.find((s) => s.roles.includes(role) && s.companyCodes.includes(companyCode));
  if (!staff) throw new Error(`no demo ${role} for company code ${companyCode}`);
  return { userId: userIdForUsername(staff.username), role, name: staff.name };
}

/** The next action that moves a demo BA towards its target, or null once it stands there. */
export function nextStep(ba: DemoBa, s: OnboardingState): Step | null {
  const t = ba.target;
  const baActor: Actor = { userId: userIdForUsername(ba.admin.username), role: 'BA Admin', name: ba.admin.name };
  const save = (d: CompanyDetailsInput): Step => ({
    name: 'save',
    action: { kind: 'saveDetails', details: d },
    actor: baActor,
  });
  const submit: Step = { name: 'submit', action: { kind: 'submit' }, actor: baActor };

  if (s.status === 'pending') {
    if (t.status === 'pending') {
      if (t.details === 'none' || s.details !== null) return null;
      if (t.details === 'full') return save(ba.details);
      // A draft: the first screenful typed in, the rest still to come.
      const { companyName, panNumber, contactPersonName, contactPersonMobileNumber } = ba.details;
      return save({ companyName, panNumber, contactPersonName, contactPersonMobileNumber });
    }
    return s.details === null ? save(ba.details) : submit;
  }
  if (s.status === 'inprogress' && s.stage !== null) {
    if (t.status === 'pending') return null;
    if (t.status === 'inprogress' && t.stage === s.stage) return null;
    if (t.status === 'rejected' && t.stage === s.stage)
      return {
        name: `reject-${s.stage}`,
        action: { kind: 'reject', stage: s.stage, remarks: t.remarks },
        actor: staffActor(ba.companyCode, s.stage),
      };
    return {
      name: `approve-${s.stage}`,
      action: { kind: 'approve', stage: s.stage, remarks: null },
      actor: staffActor(ba.companyCode, s.stage),
    };
  }
  return null;
}

async function seedBa(deps: SeedDeps, ba: DemoBa): Promise<{ created: boolean; actions: number }> {
  let state = await baState(deps.store, ba.baId);
  let created = false;
  if (state.status === 'none') {
    const result = await startOnboarding(deps.temporal, deps.taskQueue, {
      baId: ba.baId,
      companyCode: ba.companyCode,
      adminUserId: userIdForUsername(ba.admin.username),
      mobileNo: ba.admin.mobile,
      email: ba.admin.username,
      actor: SEED_ACTOR,
      correlationId: `seed:${ba.key}`,
      requestId: `seed:${ba.key}:start`,
      reviewSlaMs: deps.reviewSlaMs,
    });
    created = !result.alreadyStarted;
    state = await baState(deps.store, ba.baId);
  }
  let actions = 0;
  // Bounded: the longest path is save, submit, approve, approve.
  for (let i = 0; i < 6; i++) {
    const step = nextStep(ba, state);
    if (!step) return { created, actions };
    const result = await sendOnboardingAction(deps.temporal, ba.baId, step.action, {
      actor: step.actor,
      // Same id on a rerun of the same step, so an interrupted seed never applies a step twice.
      requestId: `seed:${ba.key}:${state.submission}:${step.name}`,
      correlationId: `seed:${ba.key}`,
    });
    state = result.state;
    actions += 1;
  }
  throw new Error(`demo BA ${ba.key} did not reach its target state`);
}

/** Seeds the demo users and BAs, then waits until the read models show them. */
export async function seedDemo(deps: SeedDeps): Promise<SeedResult> {
  const log = deps.log ?? (() => undefined);
  let usersCreated = 0;
  // Sequential: each hash takes a moment of CPU, and there are few users.
  for (const user of DEMO_USERS) if (await registerUser(deps.store, user)) usersCreated += 1;

  let basCreated = 0;
  let actions = 0;
  // A few lifecycles at a time: enough to overlap round trips without swamping a 2-core machine.
  const queue = [...DEMO_BAS];
  const workers = Array.from({ length: 4 }, async () => {
    for (let ba = queue.shift(); ba; ba = queue.shift()) {
      const r = await seedBa(deps, ba);
      if (r.created) basCreated += 1;
      actions += r.actions;
    }
  });
  await Promise.all(workers);

  const head = await deps.store.headPosition();
  const timeoutMs = deps.projectionTimeoutMs ?? 60_000;
  if (!(await waitForProjections(deps.pool, head, { timeoutMs })))
    throw new Error(`the read models did not catch up with the demo data within ${timeoutMs} ms: is the projector running?`);
  if (usersCreated + basCreated + actions > 0)
    log(`demo data: ${usersCreated} users and ${basCreated} business associates created, ${actions} onboarding steps applied`);
  else log('demo data already present');
  return { usersCreated, basCreated, actions };
}

/** `npm run seed`: against a running system (the worker and projector must be up). */
async function main(): Promise<void> {
  const { loadConfig, temporalAddress } = await import('../platform/src/config');
  const { openDatabase } = await import('../platform/src/db/connect');
  const { openEventStore } = await import('../platform/src/event-store/open');
  const config = loadConfig();
  const log = (line: string) => console.log(`[seed] ${line}`);
  const db = await openDatabase(config, { log });
  const store = await openEventStore(config, db.pool);
  const connection = await Connection.connect({ address: temporalAddress(config) });
  try {
    await seedDemo({
      pool: db.pool,
      store,
      temporal: new Client({ connection, namespace: config.temporal.namespace }),
      taskQueue: config.temporal.taskQueue,
      reviewSlaMs: config.review.slaMs,
      log,
    });
  } finally {
    await connection.close();
    await store.close();
    await db.close();
  }
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
