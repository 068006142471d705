import { Chip } from '@mui/material';
import { INVOICE_STATUS_COLOURS, INVOICE_STATUS_LABELS, invoiceChipColour } from './labels';
import type { InvoiceStatus } from './types';

/** The invoice's status in its spec colour; the colour key is on the chip for tests and styles. */
export const InvoiceStatusChip = ({ status, label }: { status: InvoiceStatus; label?: string }) => (
  <Chip
    size="small"
    label={label || INVOICE_STATUS_LABELS[status] || status}
    color={invoiceChipColour(status) ?? 'default'}
    data-status-colour={INVOICE_STATUS_COLOURS[status]}
    data-testid="invoice-status-chip"
  />
);
