import { useState, type ReactNode } from 'react';
import { Box, Button, Grid, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { Link as RouterLink } from 'react-router-dom';
import { Show, usePermissions, useRecordContext } from 'react-admin';
import { formatDate, formatDateTime, formatInr } from '../../../domain/src/shared/format';
import { SectionCard } from '../shared/SectionCard';
import { useSaveDownload } from '../shared/useSaveDownload';
import { mayRecordAdvance } from './access';
import { AdvanceDialog } from './AdvanceDialog';
import { fetchMemoPdf, INVOICES_RESOURCE, MEMOS_RESOURCE } from './api';
import { InvoiceStatusChip } from './InvoiceStatusChip';
import { stateText } from './labels';
import type { MemoDetail } from './types';

const Field = ({ label, children }: { label: string; children: ReactNode }) => (
  <Grid size={{ xs: 12, sm: 6, md: 3 }}>
    <Typography variant="caption" color="text.secondary" component="div">
      {label}
    </Typography>
    <Typography variant="body2" component="div">
      {children === null || children === undefined || children === '' ? 'NA' : children}
    </Typography>
  </Grid>
);

/** GET /api/memos/:id/pdf with the session's token, saved as the API names it. */
const DownloadPdfButton = ({ memo }: { memo: MemoDetail }) => {
  const saveDownload = useSaveDownload();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      size="small"
      variant="outlined"
      startIcon={<DownloadIcon />}
      disabled={busy}
      onClick={() => {
        setBusy(true);
        void saveDownload(fetchMemoPdf(memo)).finally(() => setBusy(false));
      }}
    >
      Download PDF
    </Button>
  );
};

const MemoInvoices = ({ memo }: { memo: MemoDetail }) => (
  <Table size="small" aria-label="Memo invoices">
    <TableHead>
      <TableRow>
        <TableCell>Invoice number</TableCell>
        <TableCell>Invoice date</TableCell>
        <TableCell>Status</TableCell>
        <TableCell align="right">Taxable</TableCell>
        <TableCell align="right">Total</TableCell>
        <TableCell align="right">Net payable</TableCell>
      </TableRow>
    </TableHead>
    <TableBody>
      {(memo.invoices ?? []).map((i) => (
        <TableRow key={i.id}>
          <TableCell>
            <RouterLink to={`/${INVOICES_RESOURCE}/${encodeURIComponent(i.id)}/show`}>{i.invoiceNumber}</RouterLink>
          </TableCell>
          <TableCell>{formatDate(i.invoiceDate)}</TableCell>
          <TableCell>
            <InvoiceStatusChip status={i.status} label={i.statusLabel} />
          </TableCell>
          <TableCell align="right">{formatInr(i.taxableAmount)}</TableCell>
          <TableCell align="right">{formatInr(i.totalAmount)}</TableCell>
          <TableCell align="right">{formatInr(i.netPayable)}</TableCell>
        </TableRow>
      ))}
    </TableBody>
  </Table>
);

const MemoAdvances = ({ memo }: { memo: MemoDetail }) =>
  (memo.advances ?? []).length === 0 ? (
    <Typography variant="body2" color="text.secondary">
      No advance payments
    </Typography>
  ) : (
    <Table size="small" aria-label="Advance payments">
      <TableHead>
        <TableRow>
          <TableCell>Paid on</TableCell>
          <TableCell>Reference</TableCell>
          <TableCell align="right">Amount</TableCell>
          <TableCell>Recorded by</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {memo.advances.map((a) => (
          <TableRow key={a.advanceId}>
            <TableCell>{formatDate(a.paidOn)}</TableCell>
            <TableCell>{a.reference}</TableCell>
            <TableCell align="right">{formatInr(a.amount)}</TableCell>
            <TableCell>{a.by ? (a.by.name ?? a.by.userId) : 'NA'}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );

const MemoDetailView = () => {
  const memo = useRecordContext<MemoDetail>();
  const { permissions } = usePermissions<string[]>();
  const [advanceOpen, setAdvanceOpen] = useState(false);
  if (!memo) return null;
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h1">
          Memo {memo.memoNumber}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1 }}>
          <DownloadPdfButton memo={memo} />
          {mayRecordAdvance(permissions) && (
            <Button size="small" variant="contained" onClick={() => setAdvanceOpen(true)}>
              Record advance
            </Button>
          )}
        </Box>
      </Box>
      <SectionCard title="Memo">
        <Grid container spacing={2}>
          <Field label="Business associate">{memo.baName}</Field>
          <Field label="Company code">{memo.companyCode}</Field>
          <Field label="Financial year">{memo.financialYear}</Field>
          <Field label="From → to">{`${stateText(memo.fromStateName, memo.fromStateId)} → ${stateText(memo.toStateName, memo.toStateId)}`}</Field>
          <Field label="Submitted">{formatDateTime(memo.submittedAt)}</Field>
          <Field label="Submitted by">{memo.submittedBy?.name ?? memo.submittedBy?.userId}</Field>
          <Field label="Invoices">{memo.invoiceCount}</Field>
          <Field label="Comments">{memo.comments}</Field>
        </Grid>
      </SectionCard>
      <SectionCard title="Totals">
        <Grid container spacing={2}>
          <Field label="Taxable amount">{formatInr(memo.taxableAmount)}</Field>
          <Field label="CGST">{formatInr(memo.cgst)}</Field>
          <Field label="SGST">{formatInr(memo.sgst)}</Field>
          <Field label="IGST">{formatInr(memo.igst)}</Field>
          <Field label="Total">{formatInr(memo.totalAmount)}</Field>
          <Field label="Tax deduction (TD)">{formatInr(memo.td)}</Field>
          <Field label="Net payable">{formatInr(memo.netPayable)}</Field>
          <Field label="Advance">{formatInr(memo.advanceAmount)}</Field>
          <Field label="Balance">{formatInr(memo.balance)}</Field>
        </Grid>
      </SectionCard>
      <SectionCard title="Invoices">
        <MemoInvoices memo={memo} />
      </SectionCard>
      <SectionCard title="Advance payments">
        <MemoAdvances memo={memo} />
      </SectionCard>
      <AdvanceDialog memo={memo} open={advanceOpen} onClose={() => setAdvanceOpen(false)} />
    </Stack>
  );
};

/** /memos/:id/show: the memo, its invoices, totals and advances; PDF download; accounts record advances. */
export const MemoShow = () => (
  <Show resource={MEMOS_RESOURCE} actions={false} title="Memo">
    <MemoDetailView />
  </Show>
);
