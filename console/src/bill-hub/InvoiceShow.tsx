import type { ReactNode } from 'react';
import { Alert, Box, Chip, Grid, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { Show, useRecordContext } from 'react-admin';
import { formatDate, formatDateTime, formatInr } from '../../../domain/src/shared/format';
import { SectionCard } from '../shared/SectionCard';
import { INVOICES_RESOURCE, MEMOS_RESOURCE } from './api';
import { InvoiceActions } from './InvoiceActions';
import { InvoiceAttachments } from './InvoiceAttachments';
import { InvoiceHistory } from './InvoiceHistory';
import { InvoiceStatusChip } from './InvoiceStatusChip';
import { SLA_BREACHED_TEXT } from './InvoiceList';
import { BILL_HUB_TEXTS } from './labels';
import type { InvoiceDetail } from './types';

const Field = ({ label, children }: { label: string; children: ReactNode }) => (
  <Grid size={{ xs: 12, sm: 6, md: 4 }}>
    <Typography variant="caption" color="text.secondary" component="div">
      {label}
    </Typography>
    <Typography variant="body2" component="div">
      {children === null || children === undefined || children === '' ? 'NA' : children}
    </Typography>
  </Grid>
);

const codeAndName = (code: string | null, name: string | null) => (code ? (name ? `${code} – ${name}` : code) : null);

/** What the ERP is doing with a booking: waiting, or its last refusal / failed call. */
const ErpState = ({ invoice }: { invoice: InvoiceDetail }) => (
  <>
    {invoice.booking && (
      <Alert severity="info" data-testid="invoice-booking">
        {BILL_HUB_TEXTS.waitingForErp}
      </Alert>
    )}
    {invoice.lastErpError && (
      <Alert severity="warning" data-testid="invoice-erp-error">
        ERP: {invoice.lastErpError}
      </Alert>
    )}
  </>
);

const InvoiceDetailView = () => {
  const invoice = useRecordContext<InvoiceDetail>();
  if (!invoice) return null;
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Typography variant="h5" component="h1">
            Invoice {invoice.invoiceNumber}
          </Typography>
          <InvoiceStatusChip status={invoice.status} label={invoice.statusLabel} />
          {invoice.slaBreached && <Chip size="small" color="error" variant="outlined" label={SLA_BREACHED_TEXT} />}
        </Box>
        <InvoiceActions />
      </Box>
      <ErpState invoice={invoice} />
      {invoice.remarks && (invoice.status === 'C' || invoice.status === 'R') && (
        <Alert severity="error">Remarks: {invoice.remarks}</Alert>
      )}
      <SectionCard title="Invoice">
        <Grid container spacing={2}>
          <Field label="Business associate">{invoice.baName}</Field>
          <Field label="BA code">{invoice.baCode}</Field>
          <Field label="Company code">{invoice.companyCode}</Field>
          <Field label="Invoice number">{invoice.invoiceNumber}</Field>
          <Field label="Invoice date">{formatDate(invoice.invoiceDate)}</Field>
          <Field label="Financial year">{invoice.financialYear}</Field>
          <Field label="Billing from">{codeAndName(invoice.billingFromCode, invoice.fromStateName)}</Field>
          <Field label="Billing to">
            {codeAndName(invoice.billingToCode, invoice.billingToName)}
            {invoice.toStateName ? `, ${invoice.toStateName}` : ''}
          </Field>
          <Field label="HSN code">{invoice.hsnCode}</Field>
          <Field label="Submitted to">{invoice.submitToName}</Field>
          <Field label="Submitted on">{invoice.submittedAt ? formatDateTime(invoice.submittedAt) : null}</Field>
          <Field label="Memo">
            {invoice.memoId ? (
              <RouterLink to={`/${MEMOS_RESOURCE}/${encodeURIComponent(invoice.memoId)}/show`}>{invoice.memoNumber ?? invoice.memoId}</RouterLink>
            ) : null}
          </Field>
          <Field label="ERP document number">{invoice.erpDocumentNumber}</Field>
          <Field label="Released on">{invoice.releasedAt ? formatDateTime(invoice.releasedAt) : null}</Field>
          <Grid size={12}>
            <Typography variant="caption" color="text.secondary" component="div">
              Comments
            </Typography>
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
              {invoice.comments || 'NA'}
            </Typography>
          </Grid>
        </Grid>
      </SectionCard>
      <SectionCard title="Amounts">
        <Grid container spacing={2}>
          <Field label="Taxable amount">{formatInr(invoice.taxableAmount)}</Field>
          <Field label="CGST">{formatInr(invoice.cgst)}</Field>
          <Field label="SGST">{formatInr(invoice.sgst)}</Field>
          <Field label="IGST">{formatInr(invoice.igst)}</Field>
          <Field label="Total">{formatInr(invoice.totalAmount)}</Field>
          <Field label="Tax deduction (TD)">{formatInr(invoice.td)}</Field>
          <Field label="Net payable">{formatInr(invoice.netPayable)}</Field>
        </Grid>
      </SectionCard>
      <SectionCard title="Attachments">
        <InvoiceAttachments invoiceId={invoice.id} attachments={invoice.attachments ?? []} />
      </SectionCard>
      <SectionCard title="History">
        <InvoiceHistory history={invoice.history ?? []} />
      </SectionCard>
    </Stack>
  );
};

/**
 * /invoices/:id/show: every field of the invoice, its files, its timeline and the actions the API allows the
 * user now. GET /api/invoices/:id answers 404 outside the user's company codes (react-admin's not-found).
 */
export const InvoiceShow = () => (
  <Show resource={INVOICES_RESOURCE} actions={false} title="Invoice">
    <InvoiceDetailView />
  </Show>
);
