import { configure, render } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { memoryStore, type AuthProvider, type DataProvider } from 'react-admin';
import { App } from '../App';
import type { ConsoleIdentity } from '../providers/authProvider';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import type { ActivityEntry, BaCounts, BusinessAssociate, ReviewTask, StaffUser } from '../shared/types';
import { me } from './identity';
import { fakeItemMethods, type FakeItems } from './fakeItems';

export { me };

// The whole console mounts per test on shared 2-core machines: waits get room (nothing asserts timing).
configure({ asyncUtilTimeout: 10_000 });
// react-admin scrolls to the top on navigation; jsdom does not implement scrolling.
window.scrollTo = () => undefined;

/**
 * Test doubles for UI tests: the real console (App with its layout, menu, resources and notifications)
 * rendered at a route, against an in-memory data provider and an auth provider with fixed roles.
 */
export const counts = (over: Partial<BaCounts> = {}): BaCounts => ({
  all: 6,
  registered: 1,
  pendingOnboarding: 3,
  firstStage: 2,
  secondStage: 1,
  verified: 1,
  rejected: 1,
  myPendingTasks: 2,
  pending: 3,
  documentsExpired: 0,
  blockedUsers: 0,
  additionalDocumentsPending: 0,
  ...over,
});

export function baRow(over: Partial<BusinessAssociate> = {}): BusinessAssociate {
  return {
    id: 'ba-1',
    companyCode: '1000',
    status: 'inprogress',
    stage: 1,
    companyName: 'Sharma Roadways Pvt Ltd',
    panNumber: 'ABCDE1234F',
    contactPersonName: 'Ravi Sharma',
    contactPersonMobileNumber: '9876543210',
    cityId: 2701,
    cityName: 'Mumbai',
    stateId: 27,
    stateName: 'Maharashtra',
    serviceId: 1,
    serviceName: 'Transportation',
    submission: 1,
    remarks: null,
    welcomeMessage: null,
    overdue: false,
    registeredEmail: 'ravi@sharma-roadways.test',
    registeredMobile: '9876543210',
    adminUserId: 'user-ravi',
    documentsExpired: false,
    blocked: false,
    paymentsOnHold: false,
    mobileNo: '9876543210',
    email: 'ravi@sharma-roadways.test',
    createdAt: '2025-11-01T09:00:00.000Z',
    submittedAt: '2025-11-03T10:30:00.000Z',
    updatedAt: '2025-11-03T10:30:00.000Z',
    details: {
      companyName: 'Sharma Roadways Pvt Ltd',
      panNumber: 'ABCDE1234F',
      contactPersonName: 'Ravi Sharma',
      cinNumber: null,
      serviceId: 1,
      stateId: 27,
      cityId: 2701,
      addressLine1: '12, Transport Nagar',
      addressLine2: null,
      pinCode: '400001',
      companyLandline: null,
      contactPersonMobileNumber: '9876543210',
      ownFleet: 12,
      attachedFleet: 30,
    },
    ...over,
  };
}

export const activity = (over: Partial<ActivityEntry> = {}): ActivityEntry => ({
  id: 1,
  baId: 'ba-1',
  companyCode: '1000',
  at: '2025-11-03T10:30:00.000Z',
  actorUserId: 'ba-user-1',
  actorName: 'Ravi Sharma',
  role: 'BA Admin',
  action: 'Submitted for verification',
  status: 'submitted',
  changes: null,
  remarks: null,
  eventId: 'evt-1',
  eventType: 'OnboardingSubmitted',
  streamVersion: 1,
  ...over,
});

export const task = (over: Partial<ReviewTask> = {}): ReviewTask => ({
  id: 'task-1',
  baId: 'ba-1',
  companyName: 'Sharma Roadways Pvt Ltd',
  companyCode: '1000',
  stage: 1,
  submission: 1,
  candidateRoles: ['MLL Procurement', 'MLL-ADMIN'],
  createdAt: '2025-11-03T10:30:00.000Z',
  slaDueAt: '2025-11-05T10:30:00.000Z',
  ageSeconds: 3 * 3600,
  overdue: false,
  overdueAt: null,
  ...over,
});

export const staffUser = (over: Partial<StaffUser> = {}): StaffUser => ({
  id: 'u-ops',
  name: 'Omkar Operations',
  emailId: 'operations@demo.test',
  mobileNo: '9822012345',
  roles: ['MLL Operations'],
  applications: [{ appId: 'onboard', roleName: 'MLL Operations' }],
  companyCodes: ['1000'],
  status: 'active',
  kind: 'staff',
  createdAt: '2025-10-01T09:00:00.000Z',
  ...over,
});

/** GET /api/companies. */
export const COMPANY_ROWS = [
  { id: '1000', companyCode: '1000', name: 'MLL Logistics' },
  { id: '2000', companyCode: '2000', name: 'MLL Freight Services' },
];

export type FakeData = {
  records?: BusinessAssociate[];
  tasks?: ReviewTask[];
  log?: ActivityEntry[];
  counts?: BaCounts;
  users?: StaffUser[];
  /** The BA page's item reads (issue 8); empty lists unless given. */
  items?: FakeItems;
};

type MockedMethods =
  | 'getList'
  | 'getOne'
  | 'create'
  | 'update'
  | 'approve'
  | 'reject'
  | 'getCounts'
  | 'getActivityLog'
  | 'getEventHistory'
  | 'blockUser'
  | 'unblockUser'
  | 'getBaItems'
  | 'baCommand'
  | 'baUpload'
  | 'getBaFile'
  | 'getActivityLogPage';
export type FakeDataProvider = ConsoleDataProvider & Record<MockedMethods, jest.Mock>;

/** An in-memory ConsoleDataProvider whose every method is a jest mock, so tests can assert the calls. */
export function fakeDataProvider(data: FakeData = {}): FakeDataProvider {
  const records = data.records ?? [baRow()];
  const users = data.users ?? [staffUser()];
  const lists: Record<string, { id: unknown }[]> = {
    'business-associates': records,
    tasks: data.tasks ?? [],
    users,
    companies: COMPANY_ROWS,
  };
  const setStatus = (status: StaffUser['status']) =>
    jest.fn(async (id: unknown) => ({ data: { ...users.find((u) => u.id === id)!, status } }));
  const provider = {
    getList: jest.fn(async (resource: string) => {
      const rows = lists[resource] ?? [];
      return { data: rows, total: rows.length };
    }),
    getOne: jest.fn(async (resource: string, { id }: { id: unknown }) => {
      const found = (lists[resource] ?? []).find((r) => r.id === id);
      if (!found) throw Object.assign(new Error('Not found'), { status: 404 });
      return { data: found };
    }),
    getMany: jest.fn(async () => ({ data: [] })),
    getManyReference: jest.fn(async () => ({ data: [], total: 0 })),
    create: jest.fn(async (_resource: string, { data: body }: { data: Record<string, unknown> }) => ({
      data: { ...staffUser(), ...body, id: 'u-new' },
    })),
    update: jest.fn(async (_resource: string, { id, data: body }: { id: unknown; data: Record<string, unknown> }) => ({
      data: { ...users.find((u) => u.id === id), ...body, id },
    })),
    updateMany: jest.fn(),
    delete: jest.fn(),
    deleteMany: jest.fn(),
    approve: jest.fn(async (id: unknown) => ({
      data: { ...records.find((r) => r.id === id)!, stage: 2 as const },
    })),
    reject: jest.fn(async (id: unknown, { remarks }: { remarks: string }) => ({
      data: { ...records.find((r) => r.id === id)!, status: 'rejected' as const, stage: null, remarks },
    })),
    getCounts: jest.fn(async () => data.counts ?? counts()),
    getActivityLog: jest.fn(async () => data.log ?? [activity()]),
    getEventHistory: jest.fn(async () => [
      {
        globalPosition: 7,
        version: 0,
        eventId: 'evt-1',
        type: 'BusinessAssociateCreated',
        data: { baId: 'ba-1' },
        metadata: { actor: { userId: 'system', role: 'system' } },
        recordedAt: '2025-11-01T09:00:00.000Z',
        prevHash: 'a'.repeat(64),
        hash: 'b'.repeat(64),
      },
    ]),
    blockUser: setStatus('blocked'),
    unblockUser: setStatus('active'),
    startContactChange: jest.fn(async () => ({ id: 'cc-1', expiresAt: '2025-11-02T09:00:00.000Z' })),
    ...fakeItemMethods(data.items, data.log ?? [activity()]),
  };
  return provider as unknown as FakeDataProvider;
}

export type FakeAuthProvider = AuthProvider & {
  setActiveCompany: jest.Mock;
  changePassword: jest.Mock;
  startLogin: jest.Mock;
  resendLoginOtp: jest.Mock;
};

/**
 * A signed-in session with fixed roles; `identity` overrides what getIdentity answers (company codes, the
 * active code, a forced password change). The session commands are jest mocks.
 */
export function fakeAuthProvider(
  roles: string[],
  name = 'Test Reviewer',
  identity: Partial<ConsoleIdentity> = {},
): FakeAuthProvider {
  let current: ConsoleIdentity = {
    id: 'user-1',
    fullName: name,
    username: 'reviewer@demo.test',
    roles,
    companyCodes: ['1000'],
    activeCompanyCode: 'All',
    mustChangePassword: false,
    ...identity,
  };
  return {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getPermissions: async () => roles,
    getIdentity: async () => current,
    setActiveCompany: jest.fn(async (companyCode: string) => {
      current = { ...current, activeCompanyCode: companyCode };
      return me({ roles, companyCodes: current.companyCodes, activeCompanyCode: companyCode });
    }),
    changePassword: jest.fn(async () => {
      current = { ...current, mustChangePassword: false };
      return 'Password changed successfully';
    }),
    startLogin: jest.fn(),
    resendLoginOtp: jest.fn(),
  };
}

type RenderOptions = {
  dataProvider: DataProvider;
  /** Roles of the fake signed-in session (ignored when authProvider is given). */
  roles?: string[];
  authProvider?: AuthProvider;
};

/**
 * Renders the whole console at `path` (react-admin routes by hash in the browser, by memory here). A plain
 * MemoryRouter rather than a data router: jsdom has no fetch Request, which data-router navigation needs.
 */
export function renderConsole(path: string, { dataProvider, roles = [], authProvider }: RenderOptions) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <App dataProvider={dataProvider} authProvider={authProvider ?? fakeAuthProvider(roles)} store={memoryStore()} />
    </MemoryRouter>,
  );
}
