import { Chip } from '@mui/material';
import { VENDOR_CODE_STATUS_COLORS, VENDOR_CODE_STATUS_LABELS } from './labels';
import type { VendorCodeStatus } from './types';

export const VendorCodeStatusChip = ({ status }: { status: VendorCodeStatus }) => (
  <Chip
    size="small"
    label={VENDOR_CODE_STATUS_LABELS[status] ?? status}
    color={VENDOR_CODE_STATUS_COLORS[status] ?? 'default'}
  />
);

export const BlockedChip = ({ blocked }: { blocked: boolean | undefined }) =>
  blocked ? <Chip size="small" color="error" variant="outlined" label="Blocked" data-testid="blocked-chip" /> : null;
