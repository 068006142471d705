import { useState, type ReactNode } from 'react';
import { Alert, Box, Card, CardContent, CircularProgress, Tab, Tabs, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Title, usePermissions } from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { formatDate, formatDateTime, formatInr, MISSING } from '../../../domain/src/shared/format';
import { errorText } from '../providers/httpClient';
import { mayChangeRfps } from './access';
import { fetchRfp } from './api';
import { notNowReason } from './availability';
import { rfpTypeLabel } from './labels';
import { RFP_DASHBOARD_PATH, rfpWizardPath } from './paths';
import { RfpActions } from './RfpActions';
import { RfpActivityTab } from './RfpActivityTab';
import { RfpComparisonTab } from './RfpComparisonTab';
import { RfpFiles } from './RfpFiles';
import { RfpInvitationsTab } from './RfpInvitationsTab';
import { RfpLanesTab } from './RfpLanesTab';
import { RfpStatusChip } from './RfpStatusChip';
import type { RfpStaffView } from './types';

export const RFP_VIEW_TEXTS = {
  backhaulStaffOnly: 'Only the RFP staff roles may invite BAs for backhaul',
} as const;

const TABS = [
  { key: 'lanes', label: 'Lanes' },
  { key: 'responses', label: 'Responses' },
  { key: 'invited', label: 'Invited BAs' },
  { key: 'activity', label: 'Activity' },
] as const;
type TabKey = (typeof TABS)[number]['key'];

const Field = ({ label, children }: { label: string; children: ReactNode }) => (
  <Box>
    <Typography variant="caption" color="text.secondary" component="div">
      {label}
    </Typography>
    <Typography variant="body2" component="div">
      {children}
    </Typography>
  </Box>
);

const Header = ({ rfp }: { rfp: RfpStaffView }) => (
  <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))', gap: 2 }} aria-label="RFP details" role="group">
    <Field label="Customer">{rfp.customerName || MISSING}</Field>
    <Field label="Opportunity">
      {rfp.casshOppId || MISSING}
      {rfp.oppDescription ? ` — ${rfp.oppDescription}` : ''}
    </Field>
    <Field label="RFP type">{rfpTypeLabel(rfp.rfpType)}</Field>
    <Field label="Receive date">{formatDate(rfp.receiveDate)}</Field>
    <Field label="Due date">{formatDate(rfp.dueDate)}</Field>
    <Field label="Value">{formatInr(rfp.header?.rfpValue)}</Field>
    <Field label="Status">
      <RfpStatusChip status={rfp.status} />
    </Field>
    <Field label="Round">{rfp.round}</Field>
    {/* Staff may close bidding before the due time: then when it closed is what matters, not when it would have. */}
    {rfp.biddingClosedAt ? (
      <Field label="Bidding closed">{formatDateTime(rfp.biddingClosedAt)}</Field>
    ) : (
      <Field label="Bidding closes">{rfp.dueAt ? formatDateTime(rfp.dueAt) : MISSING}</Field>
    )}
    <Field label="Lanes">{rfp.laneCount}</Field>
    <Field label="BAs invited / responded">
      {rfp.invitedCount} / {rfp.responseCount}
    </Field>
  </Box>
);

/**
 * /rfp/MLL/view/:id/:rfpType (spec 001 §2 "staff view of one RFP, responses and comparison"): the header, the
 * deciders' actions, the files, and tabs for the lanes, the compared responses, the invited BAs (backhaul) and
 * the history. The RFP is read by its code; the type segment of the path is not needed to find it.
 */
export const RfpView = () => {
  const { id = '' } = useParams<{ id: string }>();
  const { permissions } = usePermissions<string[]>();
  const [tab, setTab] = useState<TabKey>('lanes');
  const rfp = useQuery({ queryKey: ['rfps', id], queryFn: () => fetchRfp(id), retry: false });

  if (rfp.isPending) return <CircularProgress sx={{ m: 2 }} />;
  if (rfp.isError)
    return (
      <Alert severity="error" sx={{ mt: 2 }}>
        {errorText(rfp.error)}
      </Alert>
    );
  const data = rfp.data;
  const backhaulReason = mayChangeRfps(permissions) ? notNowReason('InviteBackhaul', data.status) : RFP_VIEW_TEXTS.backhaulStaffOnly;

  return (
    <Box sx={{ mt: 1, display: 'grid', gap: 1 }}>
      <Title title={`RFP ${data.rfpCode}`} />
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
        <Typography variant="h5" component="h1">
          RFP {data.rfpCode}
        </Typography>
        <RfpActions rfp={data} />
      </Box>
      <Typography variant="body2" sx={{ display: 'flex', gap: 2 }}>
        <RouterLink to={RFP_DASHBOARD_PATH}>Back to the RFP dashboard</RouterLink>
        {/* A draft is finished in the wizard, at the step its saved data gives (stepForExistingRfp, by the API). */}
        {data.status === 'draft' && mayChangeRfps(permissions) && (
          <RouterLink to={rfpWizardPath(data.wizard.step, data.rfpCode)}>Continue in the wizard</RouterLink>
        )}
      </Typography>
      <Card variant="outlined">
        <CardContent sx={{ display: 'grid', gap: 2 }}>
          <Header rfp={data} />
          <RfpFiles rfp={data} />
        </CardContent>
      </Card>
      <Card variant="outlined">
        <Tabs value={tab} onChange={(_e, next: TabKey) => setTab(next)} aria-label="RFP sections" variant="scrollable" scrollButtons="auto">
          {TABS.map((t) => (
            <Tab key={t.key} value={t.key} label={t.label} />
          ))}
        </Tabs>
        <CardContent>
          {tab === 'lanes' && <RfpLanesTab code={data.rfpCode} />}
          {tab === 'responses' && <RfpComparisonTab code={data.rfpCode} />}
          {tab === 'invited' && <RfpInvitationsTab code={data.rfpCode} invitations={data.invitations} disabledReason={backhaulReason} />}
          {tab === 'activity' && <RfpActivityTab code={data.rfpCode} />}
        </CardContent>
      </Card>
    </Box>
  );
};
