import { Chip, Tooltip } from '@mui/material';
import { REVIEW_STATUS_LABELS } from './review';
import type { ReviewStatus } from './types';

const COLORS = { pending: 'warning', approved: 'success', rejected: 'error' } as const;

/** An item's review status; a rejection shows its remarks on hover and in the label for screen readers. */
export const ReviewStatusChip = ({ status, remarks }: { status: ReviewStatus | null; remarks?: string | null }) => {
  if (!status) return <Chip size="small" label="Not saved" variant="outlined" />;
  const chip = (
    <Chip
      size="small"
      color={COLORS[status]}
      variant={status === 'pending' ? 'outlined' : 'filled'}
      label={REVIEW_STATUS_LABELS[status]}
      data-testid="review-status"
      aria-label={remarks ? `${REVIEW_STATUS_LABELS[status]}: ${remarks}` : REVIEW_STATUS_LABELS[status]}
    />
  );
  return remarks ? <Tooltip title={remarks}>{chip}</Tooltip> : chip;
};
