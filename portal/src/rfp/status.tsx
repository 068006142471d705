import Chip from '@mui/material/Chip';
import { RFP_STATUS_COLOURS, type RfpStatus, type StatusColour } from '../../../domain/src/rfp/model';

/** The spec's five colour keys as the theme's colours (which key each status wears is the domain's). */
const CHIP_COLOURS: Record<StatusColour, 'info' | 'warning' | 'error' | 'default' | 'success'> = {
  submitted: 'info',
  acknowledged: 'warning',
  rejected: 'error',
  inProgress: 'default',
  released: 'success',
};

const LABELS: Record<RfpStatus, string> = {
  draft: 'Draft',
  floated: 'Floated',
  evaluation: 'Evaluation',
  awarded: 'Awarded',
  closed: 'Closed',
};

export function RfpStatusChip({ status }: { status: RfpStatus }) {
  return <Chip size="small" label={LABELS[status]} color={CHIP_COLOURS[RFP_STATUS_COLOURS[status]]} data-testid="rfp-status" />;
}
