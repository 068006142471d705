import { Chip } from '@mui/material';
import { RFP_STATUS_COLOURS, type RfpStatus } from '../../../domain/src/rfp/model';
import { RFP_STATUS_LABELS, chipColourOf } from './labels';

/** The RFP's status in its spec colour (domain RFP_STATUS_COLOURS); the colour key is on the chip for tests and styles. */
export const RfpStatusChip = ({ status }: { status: RfpStatus }) => (
  <Chip
    size="small"
    label={RFP_STATUS_LABELS[status] ?? status}
    color={chipColourOf(status) ?? 'default'}
    data-status-colour={RFP_STATUS_COLOURS[status]}
    data-testid="rfp-status-chip"
  />
);
