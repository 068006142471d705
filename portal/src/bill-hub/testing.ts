import { fakeApi, problem, type FakeApi, type FakeApiOptions, type FakeReply, type RecordedRequest } from '../testing/fakeApi';
import { STATUS_LABELS } from './texts';
import type { FormOptions, InvoiceDetail, InvoiceFields, InvoiceRow, InvoiceStatus, MemoDetail } from './types';

/**
 * An in-memory double of the Bill-Hub routes (contract "HTTP API") for the portal's ui tests, plugged into
 * testing/fakeApi.ts as its `intercept`. It keeps invoices and memos, answers with the contract's messages,
 * and refuses a second invoice number of the BA like the API does (409 on save, "Duplicate Invoice" on submit).
 */
export const FORM_OPTIONS: FormOptions = {
  billingFrom: [
    { code: '100045', companyCode: '1000', stateId: 27, stateName: 'Maharashtra' },
    { code: '100046', companyCode: '1000', stateId: 29, stateName: 'Karnataka' },
  ],
  billingTo: [
    { code: 'CHK', name: 'Chakan Warehouse', stateId: 27, stateName: 'Maharashtra' },
    { code: 'HSK', name: 'Hoskote Distribution Centre', stateId: 29, stateName: 'Karnataka' },
  ],
  commercialUsers: [
    { userId: 'u-com', name: 'Chitra Commercial', companyCodes: ['1000'] },
    { userId: 'u-com2', name: 'Other Company Commercial', companyCodes: ['2000'] },
  ],
};

export const fakeTexts = {
  alreadyExists: 'Invoice already exists',
  duplicate: 'Duplicate Invoice',
} as const;

const state = (code: string | null) => FORM_OPTIONS.billingFrom.find((f) => f.code === code);
const location = (code: string | null) => FORM_OPTIONS.billingTo.find((t) => t.code === code);
const paise = (v: string | null) => Math.round(Number(v || '0') * 100);
const amount = (p: number) => (p / 100).toFixed(2);

/** An invoice row with the contract's derived fields filled from what was entered. */
export function invoiceRow(over: Partial<InvoiceRow> & Pick<InvoiceRow, 'id' | 'invoiceNumber'>): InvoiceRow {
  const base: InvoiceRow = {
    baId: 'ba-1',
    baName: 'Sahyadri Roadways Pvt Ltd',
    baCode: '100044',
    companyCode: '1000',
    status: 'draft',
    statusLabel: 'Draft',
    invoiceDate: '2026-11-20',
    financialYear: '2026-27',
    taxableAmount: '10000.00',
    cgst: '900.00',
    sgst: '900.00',
    igst: '0.00',
    td: '100.00',
    totalAmount: '',
    netPayable: '',
    hsnCode: '996511',
    comments: 'November trips',
    submitToUserId: 'u-com',
    submitToName: 'Chitra Commercial',
    billingFromCode: '100045',
    fromStateId: 27,
    fromStateName: 'Maharashtra',
    billingToCode: 'CHK',
    billingToName: 'Chakan Warehouse',
    toStateId: 27,
    toStateName: 'Maharashtra',
    attachments: [],
    memoId: null,
    memoNumber: null,
    remarks: null,
    erpDocumentNumber: null,
    booking: false,
    lastErpError: null,
    slaBreached: false,
    statusSince: '2026-11-20T05:00:00.000Z',
    submittedAt: null,
    releasedAt: null,
    createdAt: '2026-11-20T05:00:00.000Z',
    updatedAt: '2026-11-20T05:00:00.000Z',
    ...over,
  };
  return derive(base);
}

function derive(row: InvoiceRow): InvoiceRow {
  const total = paise(row.taxableAmount) + paise(row.cgst) + paise(row.sgst) + paise(row.igst);
  const from = state(row.billingFromCode);
  const to = location(row.billingToCode);
  return {
    ...row,
    statusLabel: STATUS_LABELS[row.status],
    totalAmount: row.taxableAmount ? amount(total) : '',
    netPayable: row.taxableAmount ? amount(total - paise(row.td)) : '',
    fromStateId: from?.stateId ?? row.fromStateId,
    fromStateName: from?.stateName ?? row.fromStateName,
    toStateId: to?.stateId ?? row.toStateId,
    toStateName: to?.stateName ?? row.toStateName,
    billingToName: to?.name ?? row.billingToName,
  };
}

type Store = { invoices: InvoiceRow[]; memos: MemoDetail[]; history: Map<string, InvoiceDetail['history']> };

export type BillHubFake = FakeApi & { store: Store };

const json = (status: number, body: unknown, headers?: Record<string, string>): FakeReply => ({ status, body, headers });

export function billHubFake(
  options: FakeApiOptions & { invoices?: InvoiceRow[]; memos?: MemoDetail[]; override?: (req: RecordedRequest) => FakeReply | undefined },
): BillHubFake {
  const store: Store = { invoices: [...(options.invoices ?? [])], memos: [...(options.memos ?? [])], history: new Map() };
  let ids = 0;
  const find = (id: string) => store.invoices.find((i) => i.id === id);
  const put = (row: InvoiceRow) => {
    store.invoices = store.invoices.map((i) => (i.id === row.id ? derive(row) : i));
    return find(row.id) as InvoiceRow;
  };
  const taken = (number: string, except: string | null) =>
    store.invoices.some(
      (i) => i.id !== except && i.status !== 'discarded' && i.invoiceNumber.trim().toUpperCase() === number.trim().toUpperCase(),
    );
  const detail = (row: InvoiceRow): InvoiceDetail => ({
    ...row,
    history: store.history.get(row.id) ?? [],
    allowedActions: row.status === 'S' ? ['revoke'] : row.status === 'draft' ? ['save', 'submit', 'discard', 'attach'] : [],
  });
  const record = (row: InvoiceRow, status: InvoiceStatus) =>
    store.history.set(row.id, [
      ...(store.history.get(row.id) ?? []),
      { status, label: STATUS_LABELS[status], at: '2026-11-21T06:00:00.000Z', by: { userId: 'u-ba', name: 'Asha Rao', role: 'BA Admin' }, remarks: null },
    ]);

  const intercept = (req: RecordedRequest): FakeReply | undefined => {
    const custom = options.override?.(req) ?? options.intercept?.(req);
    if (custom) return custom;
    const { method, path } = req;
    const body = (req.body ?? {}) as Partial<InvoiceFields>;
    if (method === 'GET' && path === '/api/invoices/form-options') return json(200, FORM_OPTIONS);
    if (method === 'GET' && path === '/api/invoices') {
      const filter = JSON.parse(req.query.get('filter') ?? '{}') as Record<string, unknown>;
      const [start, end] = JSON.parse(req.query.get('range') ?? '[0,9]') as [number, number];
      const statuses = filter['status'] === undefined ? null : ([] as unknown[]).concat(filter['status']);
      const rows = store.invoices.filter(
        (i) =>
          i.status !== 'discarded' &&
          (statuses === null || statuses.includes(i.status)) &&
          (typeof filter['q'] !== 'string' || i.invoiceNumber.toLowerCase().includes(filter['q'].toLowerCase())) &&
          (filter['fromStateId'] === undefined || i.fromStateId === filter['fromStateId']) &&
          (filter['toStateId'] === undefined || i.toStateId === filter['toStateId']) &&
          (filter['memoCandidates'] !== true || (['S', 'A', 'V'].includes(i.status) && i.memoId === null)),
      );
      const page = rows.slice(start, end + 1);
      return json(200, page, { 'Content-Range': `invoices ${start}-${start + page.length - 1}/${rows.length}` });
    }
    if (method === 'POST' && path === '/api/invoices') {
      if (taken(body.invoiceNumber ?? '', null)) return json(409, problem(409, fakeTexts.alreadyExists));
      const row = invoiceRow({ ...(body as Partial<InvoiceRow>), id: `inv-${++ids}`, invoiceNumber: body.invoiceNumber ?? '', status: 'draft' });
      store.invoices.push(row);
      return json(201, { id: row.id, status: 'draft', message: 'Invoice Saved successfully', invoice: row });
    }
    const one = /^\/api\/invoices\/([^/]+)(?:\/(submit|discard|revoke|attachments))?(?:\/([^/]+))?$/.exec(path);
    if (!one) {
      const memo = /^\/api\/memos(?:\/([^/]+))?$/.exec(path);
      if (method === 'POST' && memo && !memo[1]) {
        const invoiceIds = (req.body as { invoiceIds: string[] }).invoiceIds;
        const rows = invoiceIds.map((id) => find(id) as InvoiceRow);
        const id = `memo-${++ids}`;
        const memoNumber = `MEMO/1000/2026-27/${String(store.memos.length + 1).padStart(6, '0')}`;
        const sum = (pick: (r: InvoiceRow) => string | null) => amount(rows.reduce((a, r) => a + paise(pick(r)), 0));
        const created: MemoDetail = {
          id,
          memoNumber,
          baId: 'ba-1',
          baName: 'Sahyadri Roadways Pvt Ltd',
          companyCode: '1000',
          financialYear: '2026-27',
          fromStateId: rows[0]?.fromStateId ?? 0,
          fromStateName: rows[0]?.fromStateName ?? null,
          toStateId: rows[0]?.toStateId ?? 0,
          toStateName: rows[0]?.toStateName ?? null,
          invoiceIds,
          invoiceCount: rows.length,
          taxableAmount: sum((r) => r.taxableAmount),
          cgst: sum((r) => r.cgst),
          sgst: sum((r) => r.sgst),
          igst: sum((r) => r.igst),
          td: sum((r) => r.td),
          totalAmount: sum((r) => r.totalAmount),
          netPayable: sum((r) => r.netPayable),
          advanceAmount: '0.00',
          balance: sum((r) => r.netPayable),
          comments: (req.body as { comments?: string }).comments ?? null,
          submittedAt: '2026-11-22T06:00:00.000Z',
          submittedBy: { userId: 'u-ba', name: 'Asha Rao' },
          invoices: [],
          advances: [],
        };
        rows.forEach((r) => put({ ...r, memoId: id, memoNumber }));
        store.memos.push(created);
        return json(201, { id, memoNumber, message: 'Memo submitted successfully.', memo: created });
      }
      if (method === 'GET' && memo?.[1]) {
        const found = store.memos.find((m) => m.id === memo[1]);
        if (!found) return json(404, problem(404, 'Not found'));
        return json(200, { ...found, invoices: found.invoices.length > 0 ? found.invoices : found.invoiceIds.map((i) => find(i)).filter(Boolean) });
      }
      return undefined;
    }
    const row = find(one[1] ?? '');
    if (!row) return json(404, problem(404, 'Not found'));
    if (method === 'GET' && !one[2]) return json(200, detail(row));
    if (method === 'PUT' && !one[2]) {
      if (taken(body.invoiceNumber ?? row.invoiceNumber, row.id)) return json(409, problem(409, fakeTexts.alreadyExists));
      const saved = put({ ...row, ...(body as Partial<InvoiceRow>) });
      return json(200, { message: 'Invoice Saved successfully', invoice: saved });
    }
    if (method === 'POST' && one[2] === 'submit') {
      if (taken(body.invoiceNumber ?? row.invoiceNumber, row.id)) return json(409, problem(409, fakeTexts.duplicate));
      const saved = put({ ...row, ...(body as Partial<InvoiceRow>), status: 'S', submittedAt: '2026-11-21T06:00:00.000Z' });
      record(saved, 'S');
      return json(200, { message: 'Invoice submitted successfully', invoice: saved });
    }
    if (method === 'POST' && one[2] === 'revoke') {
      const remarks = (req.body as { remarks?: string }).remarks ?? null;
      const saved = put({ ...row, status: 'R', remarks });
      record(saved, 'R');
      return json(200, { message: 'Invoice revoked', invoice: saved });
    }
    if (method === 'POST' && one[2] === 'discard') {
      put({ ...row, status: 'discarded' });
      return json(200, { message: 'Invoice Discarded successfully' });
    }
    if (method === 'POST' && one[2] === 'attachments') {
      const file = (req.body as FormData).get('file') as File;
      const attachment = { attachmentId: `att-${++ids}`, name: file.name, size: file.size, type: file.type };
      put({ ...row, attachments: [...row.attachments, attachment] });
      return json(201, { message: 'File uploaded successfully', attachment });
    }
    if (method === 'DELETE' && one[2] === 'attachments' && one[3]) {
      put({ ...row, attachments: row.attachments.filter((a) => a.attachmentId !== one[3]) });
      return json(200, { message: 'File deleted successfully' });
    }
    return undefined;
  };

  const api = fakeApi({ ...options, intercept });
  return Object.assign(api, { store });
}
