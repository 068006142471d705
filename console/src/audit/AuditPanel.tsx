import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Box, Button, Stack, TextField, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import HistoryIcon from '@mui/icons-material/History';
import { useDataProvider, useNotify, type Identifier } from 'react-admin';
import { formatDateTime } from '../../../domain/src/shared/format';
import { saveBlob } from '../../../ui/src/saveBlob';
import { CompanyDetails } from '../onboarding/CompanyDetails';
import { StatusChip, stageLabel } from '../onboarding/StatusChip';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { errorText } from '../providers/httpClient';
import { SectionCard } from '../shared/SectionCard';
import type { BusinessAssociate } from '../shared/types';
import { istLocalToIso, nowIstLocal } from './istTime';
import type { AuditExportFormat, BaAsOf } from './types';

/**
 * Hands a fetched file to the browser as a download: the shared `saveBlob` (ui/src), under the name the masters'
 * export and import buttons import it by.
 */
export const saveFile: (blob: Blob, fileName: string) => void = saveBlob;

const ExportButtons = ({ baId }: { baId: Identifier }) => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const download = useMutation({
    mutationFn: (format: AuditExportFormat) => dataProvider.getAuditExport(baId, format),
    onSuccess: ({ blob, fileName }) => saveFile(blob, fileName),
    onError: (error) => notify(errorText(error), { type: 'error' }),
  });
  return (
    <Stack direction="row" spacing={1}>
      {(['xlsx', 'json'] as const).map((format) => (
        <Button
          key={format}
          size="small"
          variant="outlined"
          startIcon={<DownloadIcon />}
          disabled={download.isPending}
          onClick={() => download.mutate(format)}
        >
          {format === 'xlsx' ? 'Export .xlsx' : 'Export JSON'}
        </Button>
      ))}
    </Stack>
  );
};

const Fact = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <Box>
    <Typography variant="caption" color="text.secondary" component="div">
      {label}
    </Typography>
    <Box sx={{ typography: 'body2' }}>{children}</Box>
  </Box>
);

/** The as-of state in the shape the company-details card reads; nothing of today's row shows through. */
const asRecord = (record: BusinessAssociate, s: BaAsOf): BusinessAssociate => ({
  ...record,
  details: s.details,
  companyName: s.companyName,
  panNumber: s.details?.panNumber ?? null,
  contactPersonName: s.details?.contactPersonName ?? null,
  contactPersonMobileNumber: s.details?.contactPersonMobileNumber ?? null,
  serviceName: s.serviceName,
  cityName: s.cityName,
  stateName: s.stateName,
});

const AsOfView = ({ record, state }: { record: BusinessAssociate; state: BaAsOf }) => (
  <Box role="region" aria-label="As of view" sx={{ display: 'grid', gap: 2, mt: 2 }}>
    <Alert severity="warning" icon={<HistoryIcon />} data-testid="as-of-banner">
      <strong>As of {formatDateTime(state.at)}</strong> (Indian time): the business associate as its events recorded
      up to that moment make it; not its state today.
    </Alert>
    {!state.existed ? (
      <Typography>The business associate had not registered yet at this time.</Typography>
    ) : (
      <>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' } }}>
          <Fact label="Status">{state.status === 'none' ? '—' : <StatusChip status={state.status} />}</Fact>
          <Fact label="Current stage">{state.status === 'inprogress' ? stageLabel(state.stage) : '—'}</Fact>
          <Fact label="Submission">{state.submission > 0 ? `#${state.submission}` : 'Not submitted yet'}</Fact>
          <Fact label="Company code">{state.companyCode ?? '—'}</Fact>
        </Box>
        {state.status === 'rejected' && state.remarks && (
          <Alert severity="error" sx={{ whiteSpace: 'pre-wrap' }}>
            Rejection remarks: {state.remarks}
          </Alert>
        )}
        {state.lastEvent && (
          <Typography variant="body2" color="text.secondary" data-testid="as-of-last-event">
            Last event included: {state.lastEvent.type} (version {state.lastEvent.version}, global position{' '}
            {state.lastEvent.globalPosition}), recorded {formatDateTime(state.lastEvent.recordedAt)}; {state.eventCount}{' '}
            event{state.eventCount === 1 ? '' : 's'} in all.
          </Typography>
        )}
        <CompanyDetails record={asRecord(record, state)} />
      </>
    )}
  </Box>
);

/**
 * The auditors' tools on a BA's page (Auditor, MLL-ADMIN): the export of its activity log and events, and
 * the BA "as of" any date and time, rebuilt by the API from the events recorded up to that instant.
 */
export const AuditPanel = ({ record }: { record: BusinessAssociate }) => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [picked, setPicked] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  // The whole picked minute counts: an entry the log shows at 10:30 is part of the BA "as of 10:30".
  const at = shown ? istLocalToIso(shown, true) : '';
  const asOf = useQuery({
    queryKey: ['business-associates', 'as-of', record.id, at],
    queryFn: () => dataProvider.getBaAsOf(record.id, at),
    enabled: at !== '',
  });
  return (
    <SectionCard title="Audit" action={<ExportButtons baId={record.id} />}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <TextField
          label="Show as of"
          type="datetime-local"
          size="small"
          value={picked}
          onChange={(e) => setPicked(e.target.value)}
          helperText="Date and time in Indian time"
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: nowIstLocal() } }}
        />
        <Button variant="contained" size="small" disabled={istLocalToIso(picked) === ''} onClick={() => setShown(picked)}>
          Show
        </Button>
        {shown && (
          <Button size="small" onClick={() => setShown(null)}>
            Back to today
          </Button>
        )}
      </Stack>
      {asOf.error && (
        <Alert severity="error" sx={{ mt: 2, whiteSpace: 'pre-wrap' }}>
          {errorText(asOf.error)}
        </Alert>
      )}
      {asOf.isFetching && !asOf.data && <Typography sx={{ mt: 2 }}>Loading…</Typography>}
      {shown && asOf.data && <AsOfView record={record} state={asOf.data} />}
    </SectionCard>
  );
};
