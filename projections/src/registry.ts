import { activityLogProjection } from './activity-log/activity-log.projection';
import { annexuresProjection } from './annexures/annexures.projection';
import { nucleusVendorsProjection } from './nucleus-vendors/nucleus-vendors.projection';
import { blocksProjection } from './blocks/blocks.projection';
import { businessAssociatesProjection } from './business-associates/business-associates.projection';
import { usersProjection } from './identity/users.projection';
import { mastersProjection } from './masters/masters.projection';
import { onboardingItemsProjection } from './onboarding-items/items.projection';
import { registrationsProjection } from './onboarding-items/registrations.projection';
import { createNotificationsProjection } from './notifications/notifications.projection';
import { performanceProjection } from './performance/performance.projection';
import type { Projection } from './projection';
import { releasesProjection } from './releases/releases.projection';
import { rfpsProjection } from './rfps/rfps.projection';
import { createTasksProjection, tasksProjection } from './tasks/tasks.projection';
import { invoicesProjection } from './invoices/invoices.projection';
import { memosProjection } from './memos/memos.projection';
import { vendorCodesProjection } from './vendor-codes/vendor-codes.projection';

export type ProjectionOptions = {
  /** The review SLA the task queue estimates due times with (the workflow's own timer reports overdue). */
  reviewSlaMs?: number;
  /** The app's public URL (config http.publicUrl): the RFP e-mails link to the portal with it. */
  publicUrl?: string;
};

/** Every read model the projector maintains, the rebuild rebuilds and the schema creates. */
export function allProjections(options: ProjectionOptions = {}): Projection[] {
  const tasks = options.reviewSlaMs === undefined ? tasksProjection : createTasksProjection(options);
  const notificationsProjection = createNotificationsProjection({ publicUrl: options.publicUrl ?? null });
  return [usersProjection, businessAssociatesProjection, tasks, activityLogProjection, releasesProjection, notificationsProjection, mastersProjection, annexuresProjection, vendorCodesProjection, blocksProjection, onboardingItemsProjection, registrationsProjection, nucleusVendorsProjection, rfpsProjection,
    // [issue 11: invoice and memo projections]
    invoicesProjection, memosProjection,
    // [issue 11: performance projection]
    performanceProjection,
  ];
}
