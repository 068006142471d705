import { useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { formatDate, formatInr, MISSING } from '../../../domain/src/shared/format';
import { useApi } from '../api/ApiContext';
import { isApiError, messageOf } from '../api/client';
import { useListPager } from '../shared/useListPager';
import { billHubApi, type Page } from './api';
import { createMemoPath, invoicePath, NEW_INVOICE_PATH, viewMemoPath } from './paths';
import { InvoiceStatusChip } from './StatusChip';
import { billHubTexts, LIST_TABS } from './texts';
import type { InvoiceFilter, InvoiceRow } from './types';

/**
 * '/bill-hub' and '/bill-hub/home' (spec 001 §2 "invoice list, draft invoices"): the BA's invoices by status
 * tab, searched by invoice number, newest change first. Drafts are a tab of their own.
 */
export function InvoiceListPage() {
  const client = useApi();
  const api = useMemo(() => billHubApi(client), [client]);
  const navigate = useNavigate();
  const [tab, setTab] = useState<string>('all');
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  // Spec 001 §9 (the BA lists): 10 rows from page 0, 5/10/20 a page.
  const { page, pageSize, toFirstPage, pager } = useListPager();
  const [data, setData] = useState<Page<InvoiceRow> | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  // The search is sent a moment after typing stops, not on every key.
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(q.trim());
      toFirstPage();
    }, 300);
    return () => clearTimeout(timer);
  }, [q, toFirstPage]);

  useEffect(() => {
    let live = true;
    const status = LIST_TABS.find((t) => t.key === tab)?.status ?? null;
    const filter: InvoiceFilter = { ...(status ? { status } : {}), ...(search ? { q: search } : {}) };
    api.list(filter, page, pageSize).then(
      (answer) => {
        if (!live) return;
        setData(answer);
        setLoadError(null);
      },
      (e: unknown) => {
        if (!live) return;
        setData({ rows: [], total: 0 });
        // Shown on the page, not in the modal dialog: the header (and a way elsewhere) stays usable.
        if (!(isApiError(e) && e.status === 401)) setLoadError(messageOf(e));
      },
    );
    return () => {
      live = false;
    };
  }, [api, tab, search, page, pageSize]);

  const open = (row: InvoiceRow) => navigate(invoicePath(row.id));

  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
        <Typography variant="h5" component="h1">
          {billHubTexts.listHeading}
        </Typography>
        <Stack direction="row" spacing={1}>
          <Button variant="contained" component={RouterLink} to={NEW_INVOICE_PATH}>
            Create Invoice
          </Button>
          <Button variant="outlined" component={RouterLink} to={createMemoPath()}>
            Create Memo
          </Button>
        </Stack>
      </Stack>
      <Tabs
        value={tab}
        onChange={(_e, value: string) => {
          setTab(value);
          toFirstPage();
        }}
        variant="scrollable"
        scrollButtons="auto"
        aria-label="Invoice status"
      >
        {LIST_TABS.map((t) => (
          <Tab key={t.key} value={t.key} label={t.label} />
        ))}
      </Tabs>
      <TextField
        label="Search invoice number"
        size="small"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        sx={{ maxWidth: 320 }}
      />
      {loadError && <Alert severity="error">{loadError}</Alert>}
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Invoices">
          <TableHead>
            <TableRow>
              <TableCell>Invoice Number</TableCell>
              <TableCell>Invoice Date</TableCell>
              <TableCell>Billing From → To</TableCell>
              <TableCell align="right">Total</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Memo</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data?.rows.map((row) => (
              <TableRow
                key={row.id}
                hover
                tabIndex={0}
                sx={{ cursor: 'pointer' }}
                onClick={() => open(row)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') open(row);
                }}
              >
                <TableCell>{row.invoiceNumber}</TableCell>
                <TableCell>{formatDate(row.invoiceDate)}</TableCell>
                <TableCell>{`${row.billingFromCode ?? MISSING} → ${row.billingToCode ?? MISSING}`}</TableCell>
                <TableCell align="right">{formatInr(row.totalAmount)}</TableCell>
                <TableCell>
                  <InvoiceStatusChip status={row.status} />
                </TableCell>
                <TableCell>
                  {row.memoId && row.memoNumber ? (
                    // The row opens the invoice; the memo number opens its memo.
                    <Link component={RouterLink} to={viewMemoPath(row.memoId)} onClick={(e) => e.stopPropagation()}>
                      {row.memoNumber}
                    </Link>
                  ) : (
                    MISSING
                  )}
                </TableCell>
              </TableRow>
            ))}
            {data?.rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={6} align="center">
                  {billHubTexts.noRecords}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      {pager(data?.total ?? 0)}
    </Stack>
  );
}
