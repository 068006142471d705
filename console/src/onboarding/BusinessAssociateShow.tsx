import { useState } from 'react';
import { Alert, Box, Card, CardContent, Divider, Tab, Tabs } from '@mui/material';
import { ListButton, Show, TopToolbar, usePermissions, useRecordContext } from 'react-admin';
import { AuditPanel, EventHistory, mayReadEventHistory } from '../audit';
import type { BusinessAssociate } from '../shared/types';
import { ActivityLogPanel } from './ActivityLogPanel';
import { ApproveButton } from './ApproveButton';
import { baLabel } from './baName';
import { CompanyDetails } from './CompanyDetails';
import { ContactChangeButton } from './ContactChangeButton';
import { decidableStage } from './decision';
import { mayReviewItems, mayUploadConcession } from './items/access';
import { BankAccountsSection } from './items/BankAccountsSection';
import { ChangeRequestsSection } from './items/ChangeRequestsSection';
import { CompanyCodesSection } from './items/CompanyCodesSection';
import { ConcessionsSection } from './items/ConcessionsSection';
import { DocumentsSection } from './items/DocumentsSection';
import { DuplicatesPanel } from './items/DuplicatesPanel';
import { GstSection } from './items/GstSection';
import { useStageOneBlocker } from './items/useStageOneBlocker';
import { VerticalMappingSection } from './items/VerticalMappingSection';
import { RejectButton } from './RejectButton';
import { ReviewSummary } from './ReviewSummary';
import { Timeline } from './Timeline';
import { useActivityLog } from './useActivityLog';
import { useLiveRecord } from './useLiveRecord';
import { BaBlockButton } from '../block/BaBlockButton';
import { SapLinkButton } from '../vendor-code/SapLinkButton';
import { PerformancePanel } from '../performance/PerformancePanel';

const BaTitle = () => {
  const record = useRecordContext<BusinessAssociate>();
  const title = record ? baLabel(record, `Business associate ${record.id}`) : 'Business associate';
  return <span>{title}</span>;
};

/** The decision buttons render themselves only for a reviewer of the current stage. */
const ShowActions = () => (
  <TopToolbar sx={{ gap: 1, alignItems: 'center' }}>
    <ListButton label="Back to list" />
    <Box sx={{ flex: 1 }} />
    <SapLinkButton />
    <BaBlockButton />
    <ContactChangeButton />
    <RejectButton />
    <ApproveButton />
  </TopToolbar>
);

/** Details on the left; status and timeline beside them on wide screens, below them on narrow ones. */
const overviewGridSx = {
  display: 'grid',
  gap: 2,
  gridTemplateColumns: { xs: '1fr', lg: '3fr 2fr' },
  alignItems: 'start',
} as const;

type HistoryTab = 'activity' | 'events';

/** The activity log for everyone; the raw event history beside it for auditors and admins. */
const History = ({ record }: { record: BusinessAssociate }) => {
  const { permissions } = usePermissions<string[]>();
  const [tab, setTab] = useState<HistoryTab>('activity');
  const showEvents = mayReadEventHistory(permissions);
  return (
    <Card variant="outlined">
      <Tabs
        value={showEvents ? tab : 'activity'}
        onChange={(_e, next: HistoryTab) => setTab(next)}
        sx={{ px: 2 }}
      >
        <Tab value="activity" label="Activity log" />
        {showEvents && <Tab value="events" label="Event history" />}
      </Tabs>
      <Divider />
      <CardContent>
        {tab === 'events' && showEvents ? (
          <EventHistory baId={record.id} />
        ) : (
          <ActivityLogPanel baId={record.id} />
        )}
      </CardContent>
    </Card>
  );
};

/** Tells a stage-1 reviewer up front what still blocks the approval (the Approve button says it too). */
const StageOneNotice = ({ record }: { record: BusinessAssociate }) => {
  const { permissions } = usePermissions<string[]>();
  const blocker = useStageOneBlocker(record.id, decidableStage(record, permissions) === 1);
  if (!blocker) return null;
  return (
    <Alert severity="info" data-testid="stage-approval-blocked">
      {blocker}
    </Alert>
  );
};

const BaShowContent = () => {
  const record = useRecordContext<BusinessAssociate>();
  const log = useActivityLog(record?.id);
  const { permissions } = usePermissions<string[]>();
  useLiveRecord(record?.id);
  if (!record) return null;
  const canReview = mayReviewItems(permissions);
  return (
    <Box sx={{ p: 2, display: 'grid', gap: 2 }}>
      <DuplicatesPanel record={record} />
      <StageOneNotice record={record} />
      <Box sx={overviewGridSx}>
        <CompanyDetails record={record} />
        <Box sx={{ display: 'grid', gap: 2 }}>
          <ReviewSummary record={record} />
          <Timeline record={record} log={log.data ?? []} />
        </Box>
      </Box>
      <CompanyCodesSection record={record} />
      <ChangeRequestsSection record={record} canReview={canReview} />
      <BankAccountsSection record={record} canReview={canReview} />
      <GstSection record={record} />
      <DocumentsSection record={record} canReview={canReview} />
      <ConcessionsSection record={record} canReview={canReview} canUpload={mayUploadConcession(permissions)} />
      <VerticalMappingSection record={record} canReview={canReview} />
      {/* Issue 11: the BA's performance (RFPs, invoices, documents, blocks) once it works with us. */}
      {record.status === 'verified' && <PerformancePanel baId={String(record.id)} />}
      {mayReadEventHistory(permissions) && <AuditPanel record={record} />}
      <History record={record} />
    </Box>
  );
};

/**
 * The BA page: details, status and current stage, the timeline, every onboarding section (bank accounts, GST /
 * places of business, documents, concessions, vertical mapping, change requests, other company codes) with
 * its per-item review, the duplicate-vendor warning and the filtered activity log; reviewers of the current
 * stage get Approve and Reject; auditors and admins also the raw event history, the exports and the BA as of
 * any date (the Audit card). The page reads itself again when a notification about this BA arrives.
 */
export const BusinessAssociateShow = () => (
  <Show title={<BaTitle />} actions={<ShowActions />}>
    <BaShowContent />
  </Show>
);
