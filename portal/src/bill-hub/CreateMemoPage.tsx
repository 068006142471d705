import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { formatDate, formatInr, MISSING } from '../../../domain/src/shared/format';
import { MAX_TEXT_LENGTH, messages, patterns } from '../../../domain/src/validation/fields';
import { useApi } from '../api/ApiContext';
import { isApiError, messageOf } from '../api/client';
import { useFeedback } from '../shared/feedback';
import { billHubApi } from './api';
import { sumAmounts } from './money';
import { BILL_HUB_PATH, createMemoPath, viewMemoPath } from './paths';
import { InvoiceStatusChip } from './StatusChip';
import { billHubTexts } from './texts';
import type { FormOptions, InvoiceRow } from './types';

type StateOption = { id: number; name: string };

// A state the master does not name still gets a label (and sorts), instead of breaking the page.
const uniqueStates = (rows: { stateId: number; stateName: string | null }[]): StateOption[] =>
  [...new Map(rows.map((r) => [r.stateId, { id: r.stateId, name: r.stateName ?? `State ${r.stateId}` }])).values()].sort((a, b) =>
    a.name.localeCompare(b.name),
  );

const stateParam = (value: string | null): number | null => {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : null;
};


/** The memo's totals over the chosen invoices (contract MemoSubmitted totals), shown before submitting. */
export function memoTotals(rows: InvoiceRow[]) {
  const sum = (pick: (r: InvoiceRow) => string | null) => sumAmounts(rows.map(pick));
  return {
    taxableAmount: sum((r) => r.taxableAmount),
    cgst: sum((r) => r.cgst),
    sgst: sum((r) => r.sgst),
    igst: sum((r) => r.igst),
    td: sum((r) => r.td),
    totalAmount: sum((r) => r.totalAmount),
    netPayable: sum((r) => r.netPayable),
  };
}

/**
 * '/bill-hub/creatememo?fromState=&toState=' (spec 001 §2): a memo groups the BA's submitted, acknowledged
 * or verified invoices of one company code billed from one GST state to one state. The states are chosen
 * first (kept in the query so the page can be linked), then the invoices.
 */
export function CreateMemoPage() {
  const client = useApi();
  const api = useMemo(() => billHubApi(client), [client]);
  const { showError, notify, withLoading } = useFeedback();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // The chosen states live in the page's state and are mirrored into the query. Two quick choices (From, then
  // To) can both run before the router re-renders with the first one's query; building each new query from the
  // render's params lost the first choice. A functional state update cannot lose either.
  const [states, setStates] = useState(() => ({
    fromState: stateParam(params.get('fromState')),
    toState: stateParam(params.get('toState')),
  }));
  const { fromState, toState } = states;
  const [options, setOptions] = useState<FormOptions | null>(null);
  const [candidates, setCandidates] = useState<InvoiceRow[] | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [comments, setComments] = useState('');
  const [commentsError, setCommentsError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    api.formOptions().then(
      (o) => live && setOptions(o),
      (e: unknown) => live && !(isApiError(e) && e.status === 401) && showError(messageOf(e)),
    );
    return () => {
      live = false;
    };
  }, [api, showError]);

  useEffect(() => {
    setSelected(new Set());
    if (fromState === null || toState === null) {
      setCandidates(null);
      return;
    }
    let live = true;
    api.memoCandidates(fromState, toState).then(
      (rows) => live && setCandidates(rows),
      (e: unknown) => {
        if (!live) return;
        setCandidates([]);
        if (!(isApiError(e) && e.status === 401)) showError(messageOf(e));
      },
    );
    return () => {
      live = false;
    };
  }, [api, fromState, toState, showError]);

  const fromStates = uniqueStates(options?.billingFrom ?? []);
  const toStates = uniqueStates(options?.billingTo ?? []);
  const chosen = (candidates ?? []).filter((r) => selected.has(r.id));
  const companyCodes = new Set(chosen.map((r) => r.companyCode));
  const totals = memoTotals(chosen);

  useEffect(() => {
    navigate(createMemoPath(fromState, toState), { replace: true });
  }, [navigate, fromState, toState]);

  const setState = (key: 'fromState' | 'toState', value: string) => setStates((s) => ({ ...s, [key]: stateParam(value) }));

  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allChosen = candidates !== null && candidates.length > 0 && selected.size === candidates.length;

  const submit = async () => {
    if (chosen.length === 0) return showError(billHubTexts.chooseInvoices);
    const text = comments.trim();
    if (text.length > MAX_TEXT_LENGTH) return setCommentsError(messages.tooLong);
    if (patterns.forbiddenLeading.test(text)) return setCommentsError(messages.leadingCharacter);
    try {
      const answer = await withLoading(() => api.createMemo(chosen.map((r) => r.id), text));
      notify(answer.message || billHubTexts.memoSubmitted);
      navigate(viewMemoPath(answer.id));
    } catch (e) {
      if (!(isApiError(e) && e.status === 401)) showError(messageOf(e));
    }
  };

  const stateSelect = (key: 'fromState' | 'toState', label: string, value: number | null, states: StateOption[]) => (
    <TextField
      select
      size="small"
      label={label}
      value={value ?? ''}
      onChange={(e) => setState(key, e.target.value)}
      slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      sx={{ minWidth: 220 }}
    >
      <option value="">Select</option>
      {states.map((s) => (
        <option key={s.id} value={s.id}>
          {s.name}
        </option>
      ))}
    </TextField>
  );

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        Create Memo
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {stateSelect('fromState', 'From State', fromState, fromStates)}
        {stateSelect('toState', 'To State', toState, toStates)}
      </Stack>
      {candidates === null ? (
        <Alert severity="info">{billHubTexts.chooseStates}</Alert>
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label="Memo candidates">
            <TableHead>
              <TableRow>
                <TableCell padding="checkbox">
                  <Checkbox
                    checked={allChosen}
                    indeterminate={selected.size > 0 && !allChosen}
                    onChange={() => setSelected(allChosen ? new Set() : new Set(candidates.map((r) => r.id)))}
                    slotProps={{ input: { 'aria-label': 'Select all invoices' } }}
                  />
                </TableCell>
                <TableCell>Invoice Number</TableCell>
                <TableCell>Invoice Date</TableCell>
                <TableCell>Billing From → To</TableCell>
                <TableCell>Company Code</TableCell>
                <TableCell align="right">Taxable</TableCell>
                <TableCell align="right">Total</TableCell>
                <TableCell align="right">Net Payable</TableCell>
                <TableCell>Status</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {candidates.map((r) => (
                <TableRow key={r.id} hover selected={selected.has(r.id)}>
                  <TableCell padding="checkbox">
                    <Checkbox
                      checked={selected.has(r.id)}
                      onChange={() => toggle(r.id)}
                      slotProps={{ input: { 'aria-label': `Select invoice ${r.invoiceNumber}` } }}
                    />
                  </TableCell>
                  <TableCell>{r.invoiceNumber}</TableCell>
                  <TableCell>{formatDate(r.invoiceDate)}</TableCell>
                  <TableCell>{`${r.billingFromCode ?? MISSING} → ${r.billingToCode ?? MISSING}`}</TableCell>
                  <TableCell>{r.companyCode}</TableCell>
                  <TableCell align="right">{formatInr(r.taxableAmount)}</TableCell>
                  <TableCell align="right">{formatInr(r.totalAmount)}</TableCell>
                  <TableCell align="right">{formatInr(r.netPayable)}</TableCell>
                  <TableCell>
                    <InvoiceStatusChip status={r.status} />
                  </TableCell>
                </TableRow>
              ))}
              {candidates.length === 0 && (
                <TableRow>
                  <TableCell colSpan={9} align="center">
                    {billHubTexts.noRecords}
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {companyCodes.size > 1 && <Alert severity="warning">{memoTexts.oneCompanyCode}</Alert>}
      <Paper variant="outlined" sx={{ p: 2 }} data-testid="memo-totals">
        <Typography>
          {chosen.length} selected · Taxable {formatInr(totals.taxableAmount)} · CGST {formatInr(totals.cgst)} · SGST{' '}
          {formatInr(totals.sgst)} · IGST {formatInr(totals.igst)} · TD {formatInr(totals.td)} · Total {formatInr(totals.totalAmount)} · Net
          payable {formatInr(totals.netPayable)}
        </Typography>
      </Paper>
      <TextField
        label="Comments"
        multiline
        minRows={2}
        value={comments}
        onChange={(e) => {
          setComments(e.target.value);
          setCommentsError(null);
        }}
        error={commentsError !== null}
        helperText={commentsError ?? ' '}
      />
      <Stack direction="row" spacing={1}>
        <Button variant="contained" disabled={chosen.length === 0 || companyCodes.size > 1} onClick={() => void submit()}>
          Submit Memo
        </Button>
        <Button onClick={() => navigate(BILL_HUB_PATH)}>Back</Button>
      </Stack>
    </Stack>
  );
}

export const memoTexts = {
  oneCompanyCode: 'A memo holds the invoices of one company code: select invoices of one company code only',
} as const;
