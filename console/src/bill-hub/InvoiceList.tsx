import { Box, Chip, Tab, Tabs, Tooltip, Typography } from '@mui/material';
import { DataTable, DateInput, List, Pagination, TextInput, useListContext } from 'react-admin';
import { formatDate, formatInr } from '../../../domain/src/shared/format';
import { validateDateRange } from './filters';
import { InvoiceStatusChip } from './InvoiceStatusChip';
import { BILL_HUB_TEXTS, INVOICE_TABS } from './labels';
import { INVOICES_RESOURCE } from './api';
import type { InvoiceRow } from './types';

export const INVOICE_PAGE_SIZES = [10, 25, 50, 100];
export const INVOICE_PAGE_SIZE = 25;
export const SLA_BREACHED_TEXT = 'SLA breached';

const filters = [
  <TextInput key="q" source="q" label="Invoice number" alwaysOn resettable />,
  <DateInput key="dateFrom" source="dateFrom" label="Invoice date from" alwaysOn validate={validateDateRange} />,
  <DateInput key="dateTo" source="dateTo" label="Invoice date to" alwaysOn validate={validateDateRange} />,
  <TextInput key="baId" source="baId" label="BA id" alwaysOn resettable />,
];

const tabOf = (status: unknown): string => (typeof status === 'string' && INVOICE_TABS.some((t) => t.key === status) ? status : 'all');

/** The status tabs above the list; switching keeps the other filters (the API takes `status` as one code). */
const InvoiceStatusTabs = () => {
  const { filterValues, setFilters, displayedFilters } = useListContext();
  const current = tabOf(filterValues['status']);
  return (
    <Box sx={{ width: 0, minWidth: '100%' }}>
      <Tabs
        value={current}
        onChange={(_event, key: string) => {
          const { status: _old, ...rest } = filterValues as Record<string, unknown>;
          const tab = INVOICE_TABS.find((t) => t.key === key);
          setFilters(tab?.status ? { ...rest, status: tab.status } : rest, displayedFilters);
        }}
        variant="scrollable"
        scrollButtons="auto"
        aria-label="Invoice status"
        sx={{ borderBottom: 1, borderColor: 'divider' }}
      >
        {INVOICE_TABS.map((tab) => (
          <Tab key={tab.key} value={tab.key} label={tab.label} />
        ))}
      </Tabs>
    </Box>
  );
};

/** The invoice's status, flagged when it has stayed in it longer than its SLA (INVOICE_SLA_MS). */
const StatusCell = ({ row }: { row: InvoiceRow }) => (
  <Box component="span" sx={{ display: 'inline-flex', gap: 0.5, alignItems: 'center' }}>
    <InvoiceStatusChip status={row.status} label={row.statusLabel} />
    {row.slaBreached && (
      <Tooltip title={`In this status since ${formatDate(row.statusSince)}`}>
        <Chip size="small" color="error" variant="outlined" label={SLA_BREACHED_TEXT} data-testid="sla-breached" />
      </Tooltip>
    )}
    {row.booking && <Chip size="small" variant="outlined" label="Waiting for ERP" />}
  </Box>
);

const NoInvoices = () => (
  <Typography variant="body2" sx={{ p: 2 }}>
    {BILL_HUB_TEXTS.noInvoices}
  </Typography>
);

/**
 * The staff invoice list (GET /api/invoices, simple-rest; the API scopes it to the user's company codes and
 * never sends drafts): status tabs, invoice-number / date / BA filters, newest invoice date first.
 */
export const InvoiceList = () => (
  <List
    resource={INVOICES_RESOURCE}
    title="Invoices"
    filters={filters}
    perPage={INVOICE_PAGE_SIZE}
    sort={{ field: 'invoiceDate', order: 'DESC' }}
    pagination={<Pagination rowsPerPageOptions={INVOICE_PAGE_SIZES} />}
    exporter={false}
    empty={false}
    sx={{ '& .RaList-content': { overflowX: 'auto' } }}
  >
    <InvoiceStatusTabs />
    <DataTable rowClick="show" bulkActionButtons={false} empty={<NoInvoices />}>
      <DataTable.Col source="invoiceNumber" label="Invoice number" />
      <DataTable.Col source="baName" label="BA" disableSort render={(r: InvoiceRow) => r.baName ?? 'NA'} />
      <DataTable.Col source="baCode" label="BA code" disableSort render={(r: InvoiceRow) => r.baCode ?? 'NA'} />
      <DataTable.Col source="invoiceDate" label="Invoice date" render={(r: InvoiceRow) => formatDate(r.invoiceDate)} />
      <DataTable.Col source="totalAmount" label="Total" align="right" render={(r: InvoiceRow) => formatInr(r.totalAmount)} />
      <DataTable.Col source="status" label="Status" render={(r: InvoiceRow) => <StatusCell row={r} />} />
      <DataTable.Col source="memoNumber" label="Memo" disableSort render={(r: InvoiceRow) => r.memoNumber ?? '-'} />
    </DataTable>
  </List>
);
