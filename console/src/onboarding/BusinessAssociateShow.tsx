import { useState } from 'react';
import { Box, Card, CardContent, Divider, Tab, Tabs } from '@mui/material';
import { ListButton, Show, TopToolbar, usePermissions, useRecordContext } from 'react-admin';
import { AuditPanel, EventHistory, mayReadEventHistory } from '../audit';
import type { BusinessAssociate } from '../shared/types';
import { ActivityLog } from './ActivityLog';
import { ApproveButton } from './ApproveButton';
import { baLabel } from './baName';
import { CompanyDetails } from './CompanyDetails';
import { ContactChangeButton } from './ContactChangeButton';
import { RejectButton } from './RejectButton';
import { ReviewSummary } from './ReviewSummary';
import { Timeline } from './Timeline';
import { useActivityLog } from './useActivityLog';

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
  const log = useActivityLog(record.id);
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
          <ActivityLog entries={log.data} isPending={log.isPending} error={log.error} />
        )}
      </CardContent>
    </Card>
  );
};

const BaShowContent = () => {
  const record = useRecordContext<BusinessAssociate>();
  const log = useActivityLog(record?.id);
  const { permissions } = usePermissions<string[]>();
  if (!record) return null;
  return (
    <Box sx={{ p: 2, display: 'grid', gap: 2 }}>
      <Box sx={overviewGridSx}>
        <CompanyDetails record={record} />
        <Box sx={{ display: 'grid', gap: 2 }}>
          <ReviewSummary record={record} />
          <Timeline record={record} log={log.data ?? []} />
        </Box>
      </Box>
      {mayReadEventHistory(permissions) && <AuditPanel record={record} />}
      <History record={record} />
    </Box>
  );
};

/**
 * The BA page: details, status and current stage, the timeline and the activity log; reviewers of the
 * current stage get Approve and Reject; auditors and admins also the raw event history, the exports and the
 * BA as of any date (the Audit card).
 */
export const BusinessAssociateShow = () => (
  <Show title={<BaTitle />} actions={<ShowActions />}>
    <BaShowContent />
  </Show>
);
