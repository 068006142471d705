import { Chip, Tooltip } from '@mui/material';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import type { BaStatus, ReviewStage } from '../shared/types';
import { STATUS_LABELS } from './views';

const COLORS: Record<BaStatus, 'default' | 'info' | 'success' | 'error'> = {
  pending: 'default',
  inprogress: 'info',
  verified: 'success',
  rejected: 'error',
};

export const StatusChip = ({ status }: { status: BaStatus }) => (
  <Chip size="small" label={STATUS_LABELS[status] ?? status} color={COLORS[status] ?? 'default'} />
);

/** "Stage 1" / "Stage 2" while a review waits, else a dash. */
export const stageLabel = (stage: ReviewStage | null | undefined): string => (stage ? `Stage ${stage}` : '—');

/** A review that waited longer than its SLA (the workflow recorded ReviewOverdue). */
export const OverdueMarker = ({ overdue }: { overdue: boolean }) =>
  overdue ? (
    <Tooltip title="The review is past its SLA">
      <Chip
        size="small"
        color="warning"
        variant="outlined"
        icon={<WarningAmberIcon />}
        label="Overdue"
        data-testid="overdue-marker"
      />
    </Tooltip>
  ) : null;
