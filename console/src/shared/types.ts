import type { CompanyDetails } from '../../../domain/src/onboarding/details';

/**
 * The shapes the console reads from the API (brief API.md). Kept apart from the screens so the data
 * provider, the screens and the tests agree on one definition.
 */
export type BaStatus = 'pending' | 'inprogress' | 'verified' | 'rejected';
export type ReviewStage = 1 | 2;

export type BusinessAssociate = {
  id: string;
  companyCode: string;
  status: BaStatus;
  stage: ReviewStage | null;
  companyName: string | null;
  panNumber: string | null;
  contactPersonName: string | null;
  contactPersonMobileNumber: string | null;
  cityId: number | null;
  cityName: string | null;
  stateId: number | null;
  stateName: string | null;
  serviceId: number | null;
  serviceName: string | null;
  submission: number;
  remarks: string | null;
  welcomeMessage: string | null;
  overdue: boolean;
  createdAt: string;
  submittedAt: string | null;
  updatedAt: string;
  details: CompanyDetails | null;
};

export type FieldChange = { before: unknown; after: unknown };

export type ActivityEntry = {
  id: string | number;
  baId: string;
  at: string;
  actorUserId: string | null;
  actorName: string | null;
  role: string | null;
  action: string;
  changes: Record<string, FieldChange> | null;
  remarks: string | null;
  eventType: string;
};

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

export type ReviewTask = {
  id: string;
  baId: string;
  companyName: string | null;
  companyCode: string;
  stage: ReviewStage;
  submission: number;
  candidateRoles: string[];
  createdAt: string;
  slaDueAt: string;
  ageSeconds: number;
  overdue: boolean;
};

export type BaCounts = {
  all: number;
  registered: number;
  pendingOnboarding: number;
  firstStage: number;
  secondStage: number;
  verified: number;
  rejected: number;
  myPendingTasks: number;
};

export type Me = {
  id: string;
  username: string;
  name: string;
  roles: string[];
  companyCodes: string[];
  baId: string | null;
  application: 'console' | 'portal';
};

export type Session = { accessToken: string; user: Me };
