import Alert from '@mui/material/Alert';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { display, formatDate, formatDateTime, formatInr } from '../../../domain/src/shared/format';
import type { HistoryEntry, InvoiceDetail } from './types';


/** A submitted invoice, read-only (spec 001 §3 fields), with the ERP's and the reviewers' words. */
export function InvoiceView({ invoice }: { invoice: InvoiceDetail }) {
  const rows: [string, string][] = [
    ['Invoice Number', invoice.invoiceNumber],
    ['Invoice Date', formatDate(invoice.invoiceDate)],
    ['Financial Year', display(invoice.financialYear)],
    ['HSN Code', display(invoice.hsnCode)],
    ['BA Code', display(invoice.baCode)],
    ['Billing From', `${display(invoice.billingFromCode)} (${display(invoice.fromStateName)})`],
    ['Billing To', `${display(invoice.billingToCode)} – ${display(invoice.billingToName)} (${display(invoice.toStateName)})`],
    ['Submitted To', display(invoice.submitToName)],
    ['Taxable Amount', formatInr(invoice.taxableAmount)],
    ['CGST', formatInr(invoice.cgst)],
    ['SGST', formatInr(invoice.sgst)],
    ['IGST', formatInr(invoice.igst)],
    ['TD', formatInr(invoice.td)],
    ['Total', formatInr(invoice.totalAmount)],
    ['Net Payable', formatInr(invoice.netPayable)],
    ['Memo', display(invoice.memoNumber)],
    ['ERP Document', display(invoice.erpDocumentNumber)],
    ['Comments', display(invoice.comments)],
  ];
  return (
    <Stack spacing={2}>
      {invoice.remarks && (invoice.status === 'C' || invoice.status === 'R') && (
        <Alert severity="error">
          {invoice.status === 'C' ? 'Rejection remarks' : 'Revocation remarks'}: {invoice.remarks}
        </Alert>
      )}
      {invoice.booking && <Alert severity="info">Booking requested; waiting for ERP</Alert>}
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Grid container spacing={2} component="dl" sx={{ m: 0 }}>
          {rows.map(([label, value]) => (
            <Grid key={label} size={{ xs: 12, sm: 6, md: 4 }}>
              <Typography component="dt" variant="caption" color="text.secondary">
                {label}
              </Typography>
              <Typography component="dd" sx={{ m: 0, whiteSpace: 'pre-wrap' }}>
                {value}
              </Typography>
            </Grid>
          ))}
        </Grid>
      </Paper>
    </Stack>
  );
}

/** Status history from the invoice's stream (GET /api/invoices/:id `history`). */
export function InvoiceHistory({ history }: { history: HistoryEntry[] }) {
  if (history.length === 0) return null;
  return (
    <Stack spacing={1}>
      <Typography variant="h6" component="h2">
        Status history
      </Typography>
      <Paper variant="outlined">
        <Table size="small" aria-label="Status history">
          <TableHead>
            <TableRow>
              <TableCell>Status</TableCell>
              <TableCell>When</TableCell>
              <TableCell>By</TableCell>
              <TableCell>Remarks</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {history.map((h, i) => (
              <TableRow key={`${h.at}-${i}`}>
                <TableCell>{h.label}</TableCell>
                <TableCell>{formatDateTime(h.at)}</TableCell>
                <TableCell>{display(h.by?.name)}</TableCell>
                <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{display(h.remarks)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Paper>
    </Stack>
  );
}
