import type { ActivityRow } from '../../projections/src/activity-log/activity-log.queries';
import type { BaStatus } from '../../projections/src/business-associates/business-associates.projection';
import type {
  BusinessAssociateRow,
  StatusCounts,
} from '../../projections/src/business-associates/business-associates.queries';
import type { TaskRow } from '../../projections/src/tasks/tasks.queries';
import type { Application } from './http/auth';

/**
 * The shapes the API answers with, in one place: the console and the portal `import type` them, so the
 * server and the front ends cannot drift apart. Types only: a type-only import is erased, so no server code
 * reaches a browser bundle. The rows are the read models' own (the routes send them as they are).
 */
export type { Application, BaStatus };
export type { CompanyDetails } from '../../domain/src/onboarding/details';
export type { City, Service, State } from '../../domain/src/masters/catalog';

/** One row of /api/business-associates, and the answer to each onboarding command. */
export type BusinessAssociate = BusinessAssociateRow;
export type ReviewStage = NonNullable<BusinessAssociate['stage']>;

/** One row of /api/tasks ("My Pending Task"). */
export type ReviewTask = TaskRow;

/** One row of /api/business-associates/:id/activity-log. */
export type ActivityEntry = ActivityRow;
export type FieldChange = NonNullable<ActivityEntry['changes']>[string];

/** GET /api/ba-counts: the sidebar badges. */
export type BaCounts = StatusCounts & { myPendingTasks: number };

/** GET /api/me, and the `user` of a session: what a client learns about a user (never the password hash). */
export type Me = {
  id: string;
  username: string;
  name: string;
  roles: string[];
  companyCodes: string[];
  baId: string | null;
  application: Application;
};

/** POST /api/auth/login and /api/auth/refresh. */
export type SessionResponse = { accessToken: string; expiresIn: number; user: Me };
