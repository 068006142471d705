import { mayReviewStage } from '../../../domain/src/identity/roles';

/** Review tasks exist only for the roles that decide a stage; auditors and other staff have none. */
export const hasReviewerRole = (roles: readonly string[]): boolean =>
  mayReviewStage(roles, 1) || mayReviewStage(roles, 2);
