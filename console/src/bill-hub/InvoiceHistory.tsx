import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { formatDateTime } from '../../../domain/src/shared/format';
import type { InvoiceHistoryEntry } from './types';

/** The invoice's timeline from its stream (GET /api/invoices/:id `history`), oldest first as the API sends it. */
export const InvoiceHistory = ({ history }: { history: InvoiceHistoryEntry[] }) => {
  if (history.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        No history yet
      </Typography>
    );
  }
  return (
    <Table size="small" aria-label="History">
      <TableHead>
        <TableRow>
          <TableCell>Time</TableCell>
          <TableCell>Status</TableCell>
          <TableCell>By</TableCell>
          <TableCell>Remarks</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {history.map((h, i) => (
          <TableRow key={`${h.at}-${i}`}>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(h.at)}</TableCell>
            <TableCell>{h.label || h.status}</TableCell>
            <TableCell>
              {h.by ? `${h.by.name ?? h.by.userId}${h.by.role ? ` (${h.by.role})` : ''}` : 'NA'}
            </TableCell>
            <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{h.remarks ?? '-'}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};
