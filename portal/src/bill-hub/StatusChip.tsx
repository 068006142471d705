import Chip from '@mui/material/Chip';
import { STATUS_LABELS } from './texts';
import type { InvoiceStatus } from './types';

/** Spec 001 §3 colour keys as the theme's colours: submitted, acknowledged, rejected, in progress, released. */
const COLOURS: Record<InvoiceStatus, 'info' | 'warning' | 'error' | 'default' | 'success'> = {
  draft: 'default',
  S: 'info',
  A: 'warning',
  V: 'warning',
  B: 'success',
  P: 'success',
  C: 'error',
  R: 'error',
  discarded: 'default',
};

export function InvoiceStatusChip({ status }: { status: InvoiceStatus }) {
  return <Chip size="small" label={STATUS_LABELS[status]} color={COLOURS[status]} data-testid="invoice-status" />;
}
