import { Alert, Box, Stack, Typography } from '@mui/material';
import { formatDate } from '../../../domain/src/shared/format';
import { useCompanyLabel } from '../shared/companies';
import { SectionCard } from '../shared/SectionCard';
import type { BusinessAssociate } from '../shared/types';
import { BaFlags } from './BaFlags';
import { OverdueMarker, StatusChip, stageLabel } from './StatusChip';

const Row = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, py: 0.5 }}>
    <Typography variant="body2" color="text.secondary">
      {label}
    </Typography>
    <Box sx={{ textAlign: 'right' }}>{children}</Box>
  </Box>
);

/** Status, current stage and the dates that matter, with the remarks or welcome message the BA sees. */
export const ReviewSummary = ({ record }: { record: BusinessAssociate }) => {
  const companyLabel = useCompanyLabel();
  return (
    <SectionCard title="Status">
      <Stack>
        <Row label="Status">
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <StatusChip status={record.status} />
            <OverdueMarker overdue={record.overdue} />
            <BaFlags ba={record} />
          </Stack>
        </Row>
        <Row label="Current stage">
          <Typography variant="body2" data-testid="current-stage">
            {record.status === 'inprogress' ? stageLabel(record.stage) : '—'}
          </Typography>
        </Row>
        <Row label="Company code">
          <Typography variant="body2">{companyLabel(record.companyCode)}</Typography>
        </Row>
        <Row label="Submission">
          <Typography variant="body2">
            {record.submission > 0 ? `#${record.submission}` : 'Not submitted yet'}
          </Typography>
        </Row>
        <Row label="Registered">
          <Typography variant="body2">{formatDate(record.createdAt)}</Typography>
        </Row>
        <Row label="Submitted">
          <Typography variant="body2">{formatDate(record.submittedAt)}</Typography>
        </Row>
        <Row label="Updated">
          <Typography variant="body2">{formatDate(record.updatedAt)}</Typography>
        </Row>
      </Stack>
      {record.status === 'rejected' && record.remarks && (
        <Alert severity="error" sx={{ mt: 2, whiteSpace: 'pre-wrap' }}>
          Rejection remarks: {record.remarks}
        </Alert>
      )}
      {record.status === 'verified' && record.welcomeMessage && (
        <Alert severity="success" sx={{ mt: 2 }}>
          {record.welcomeMessage}
        </Alert>
      )}
    </SectionCard>
  );
};
