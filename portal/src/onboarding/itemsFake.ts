import { ADDITIONAL_DOCUMENT_TYPES } from '../../../domain/src/masters/reference-data/additional-document-types';
import { BANK_KEYS } from '../../../domain/src/masters/reference-data/bank-keys';
import { CITIES } from '../../../domain/src/masters/reference-data/cities';
import { DOCUMENT_TYPES } from '../../../domain/src/masters/reference-data/document-types';
import { EXEMPTION_REASONS } from '../../../domain/src/masters/reference-data/exemption-reasons';
import { GST_TYPES } from '../../../domain/src/masters/reference-data/gst-types';
import { SECTION_CODES } from '../../../domain/src/masters/reference-data/section-codes';
import { STATES } from '../../../domain/src/masters/reference-data/states';
import { TAX_TYPES } from '../../../domain/src/masters/reference-data/tax-types';
import { VEHICLE_TYPES } from '../../../domain/src/masters/reference-data/vehicle-types';
import { VERTICALS } from '../../../domain/src/masters/reference-data/verticals';
import { ZONES } from '../../../domain/src/masters/reference-data/zones';
import type {
  BankAccountRow,
  ChangeRequestRow,
  CompanyCodeRow,
  ConcessionRow,
  DocumentRow,
  GstRegistrationRow,
  VerticalMappingRow,
} from '../api/onboarding';
import { fakeApi, problem, type FakeApiOptions, type FakeReply, type RecordedRequest } from '../testing/fakeApi';

/**
 * A test double for the issue 8 onboarding routes (the contract's paths and row shapes), plugged into
 * testing/fakeApi.ts as its `intercept`: items kept in memory, the masters from the reference data, and
 * failures injected per request. Requests not its own fall through to the base fake.
 */
export type ItemsFakeOptions = {
  bankAccounts?: BankAccountRow[];
  gstRegistrations?: GstRegistrationRow[];
  documents?: DocumentRow[];
  concessions?: ConcessionRow[];
  verticalMapping?: Partial<VerticalMappingRow>;
  companyCodes?: CompanyCodeRow[];
  changeRequests?: ChangeRequestRow[];
  /** Answers a request before the items fake does (to inject failures). */
  before?: (req: RecordedRequest) => FakeReply | undefined;
};

const active = <T extends object>(rows: readonly T[]) =>
  rows.map((r) => ({ ...r, status: 'active', updatedAt: '2026-03-01T00:00:00.000Z' }));

const AT = '2026-03-05T10:00:00.000Z';

export const bankRow = (over: Partial<BankAccountRow> = {}): BankAccountRow => ({
  id: 'acc-1',
  baId: 'ba-1',
  primary: true,
  accountNo: '123456789012',
  ifscCode: 'HDFC0001234',
  micrNo: null,
  accountName: 'Sahyadri Roadways Pvt Ltd',
  bankName: 'HDFC Bank',
  bankBranch: 'Pune Camp',
  reviewStatus: 'pending',
  reviewRemarks: null,
  reviewedBy: null,
  reviewedAt: null,
  createdAt: AT,
  updatedAt: AT,
  ...over,
});

export const gstRow = (over: Partial<GstRegistrationRow> = {}): GstRegistrationRow => ({
  id: 'gst-1',
  baId: 'ba-1',
  stateId: 27,
  stateName: 'Maharashtra',
  gstType: '',
  gstTypeLabel: 'GST Registered',
  gstNo: '27ABCDE1234F1Z5',
  addressLine1: '12 MG Road',
  addressLine2: null,
  pinCode: '411001',
  cityId: 2702,
  cityName: 'Pune',
  bankAccountId: null,
  vendorCategory: null,
  createdAt: AT,
  updatedAt: AT,
  ...over,
});

export const companyCodeRow = (over: Partial<CompanyCodeRow> = {}): CompanyCodeRow => ({
  id: '1000',
  companyCode: '1000',
  first: false,
  status: 'pending',
  stage: null,
  submission: 0,
  remarks: null,
  stage1ApprovedBy: null,
  appliedAt: AT,
  submittedAt: null,
  updatedAt: AT,
  ...over,
});

export const documentRow = (over: Partial<DocumentRow> = {}): DocumentRow => ({
  id: 'doc-1',
  baId: 'ba-1',
  kind: 'onboarding',
  documentTypeId: 1,
  documentTypeName: 'PAN Card',
  documentNumber: null,
  validTill: null,
  stateId: null,
  stateName: null,
  fileName: 'pan.pdf',
  fileSize: 1024,
  fileType: 'application/pdf',
  reviewStatus: 'pending',
  reviewRemarks: null,
  reviewedBy: null,
  approvedTill: null,
  reviewedAt: null,
  expired: false,
  uploadedAt: AT,
  uploadedBy: null,
  replaces: null,
  ...over,
});

export const concessionRow = (over: Partial<ConcessionRow> = {}): ConcessionRow => ({
  id: 'con-1',
  baId: 'ba-1',
  exemptionNumber: 'LDC2026001',
  exemptionRate: '0.5',
  exemptionFrom: '2026-04-01',
  exemptionTo: '2027-03-31',
  exemptionReasonId: 1,
  exemptionReason: 'Lower or nil deduction certificate under section 197',
  exemptionThreshold: '500000',
  withHoldingTaxType: 'WC',
  withHoldingTaxCode: 'C2',
  sectionCode: '194C',
  fileName: 'ldc.pdf',
  isInternalUpload: false,
  reviewStatus: 'pending',
  reviewRemarks: null,
  reviewedBy: null,
  reviewedAt: null,
  createdAt: AT,
  updatedAt: AT,
  ...over,
});

/** The multipart fields of a recorded upload, file as its name. */
export function formFields(req: RecordedRequest | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!(req?.body instanceof FormData)) return out;
  req.body.forEach((value, key) => {
    out[key] = typeof value === 'string' ? value : `file:${(value as File).name}`;
  });
  return out;
}

export function itemsFake(options: ItemsFakeOptions = {}) {
  const state = {
    bankAccounts: [...(options.bankAccounts ?? [])],
    gstRegistrations: [...(options.gstRegistrations ?? [])],
    documents: [...(options.documents ?? [])],
    concessions: [...(options.concessions ?? [])],
    verticalMapping: {
      baId: 'ba-1',
      verticalIds: [],
      subServiceIds: [],
      vehicleTypeIds: [],
      zoneIds: [],
      pickupZoneIds: [],
      deliveryZoneIds: [],
      reviewStatus: null,
      reviewRemarks: null,
      ...options.verticalMapping,
    } as VerticalMappingRow,
    companyCodes: [...(options.companyCodes ?? [])],
    changeRequests: [...(options.changeRequests ?? [])],
  };
  let ids = 100;
  const masters: Record<string, readonly object[]> = {
    'document-types': DOCUMENT_TYPES,
    'additional-document-types': ADDITIONAL_DOCUMENT_TYPES,
    'gst-types': GST_TYPES,
    verticals: VERTICALS,
    'vehicle-types': VEHICLE_TYPES,
    zones: ZONES,
    'exemption-reasons': EXEMPTION_REASONS,
    'tax-types': TAX_TYPES,
    'section-codes': SECTION_CODES,
  };

  const intercept = (req: RecordedRequest): FakeReply | undefined => {
    const early = options.before?.(req);
    if (early) return early;
    const { method, path } = req;
    const body = (req.body ?? {}) as Record<string, unknown>;
    const form = formFields(req);

    const master = /^\/api\/([a-z-]+)$/.exec(path)?.[1];
    if (method === 'GET' && master === 'bank-keys') {
      const q = String((JSON.parse(req.query.get('filter') ?? '{}') as { q?: string }).q ?? '').toLowerCase();
      return { status: 200, body: active(BANK_KEYS.filter((b) => `${b.bankCode} ${b.description}`.toLowerCase().includes(q))) };
    }
    if (method === 'GET' && master && masters[master]) return { status: 200, body: active(masters[master]) };

    const m = /^\/api\/business-associates\/ba-1\/([a-z-]+)(?:\/([^/]+))?(?:\/([a-z]+))?$/.exec(path);
    if (!m) return undefined;
    const [, resource, id, verb] = m;
    const stateName = (stateId: number) => STATES.find((s) => s.id === stateId)?.name ?? null;

    switch (resource) {
      case 'bank-accounts': {
        if (method === 'GET') return { status: 200, body: state.bankAccounts };
        if (method === 'POST' && !id) {
          const row = bankRow({ ...(body as object), id: `acc-${++ids}`, primary: state.bankAccounts.length === 0 });
          state.bankAccounts.push(row);
          return { status: 201, body: row };
        }
        const at = state.bankAccounts.findIndex((r) => r.id === id);
        if (at < 0) return { status: 404, body: problem(404, 'Not found') };
        if (method === 'PUT') {
          const row = { ...state.bankAccounts[at]!, ...(body as object), reviewStatus: 'pending' as const, updatedAt: `${AT}-${++ids}` };
          state.bankAccounts[at] = row;
          return { status: 200, body: row };
        }
        if (method === 'DELETE') {
          state.bankAccounts.splice(at, 1);
          return { status: 200, body: { id } };
        }
        return undefined;
      }
      case 'gst-registrations': {
        if (method === 'GET') return { status: 200, body: state.gstRegistrations };
        const input = body as unknown as GstRegistrationRow;
        const named = () => ({
          stateName: stateName(input.stateId),
          cityName: CITIES.find((c) => c.id === input.cityId)?.name ?? null,
          gstTypeLabel: GST_TYPES.find((t) => t.code === input.gstType)?.name ?? '',
        });
        if (method === 'POST' && !id) {
          if (state.gstRegistrations.some((g) => g.stateId === input.stateId))
            return { status: 409, body: problem(409, 'A place of business for this state already exists') };
          const row = gstRow({ ...input, ...named(), id: `gst-${++ids}` });
          state.gstRegistrations.push(row);
          return { status: 201, body: row };
        }
        const at = state.gstRegistrations.findIndex((r) => r.id === id);
        if (at < 0) return { status: 404, body: problem(404, 'Not found') };
        if (method === 'PUT') {
          const row = { ...state.gstRegistrations[at]!, ...input, ...named() };
          state.gstRegistrations[at] = row;
          return { status: 200, body: row };
        }
        if (method === 'DELETE') {
          state.gstRegistrations.splice(at, 1);
          return { status: 200, body: { id } };
        }
        return undefined;
      }
      case 'documents': {
        if (method === 'GET' && !id) {
          const kind = (JSON.parse(req.query.get('filter') ?? '{}') as { kind?: string }).kind;
          return { status: 200, body: state.documents.filter((d) => !kind || d.kind === kind) };
        }
        if (method === 'POST' && !id) {
          const typeId = Number(form['documentTypeId']);
          const kind = (form['kind'] ?? 'onboarding') as DocumentRow['kind'];
          const types = kind === 'additional' ? ADDITIONAL_DOCUMENT_TYPES : DOCUMENT_TYPES;
          const stateId = form['stateId'] ? Number(form['stateId']) : null;
          const row = documentRow({
            id: `doc-${++ids}`,
            kind,
            documentTypeId: typeId,
            documentTypeName: types.find((t) => t.id === typeId)?.name ?? String(typeId),
            documentNumber: form['documentNumber'] ?? null,
            validTill: form['validTill'] ?? null,
            stateId,
            stateName: stateId === null ? null : stateName(stateId),
            fileName: (form['file'] ?? 'file:x').slice(5),
          });
          state.documents = state.documents.filter(
            (d) => !(d.kind === kind && d.documentTypeId === typeId && d.stateId === stateId),
          );
          state.documents.push(row);
          return { status: 201, body: { ...row, message: 'File uploaded successfully' } };
        }
        if (method === 'DELETE' && id) {
          state.documents = state.documents.filter((d) => d.id !== id);
          return { status: 200, body: { id, message: 'File deleted successfully' } };
        }
        return undefined;
      }
      case 'concessions': {
        if (method === 'GET' && !id) return { status: 200, body: state.concessions };
        const fields = Object.fromEntries(Object.entries(form).filter(([k]) => k !== 'file'));
        const withReason = () => ({
          ...fields,
          exemptionReasonId: Number(fields['exemptionReasonId']),
          exemptionReason: EXEMPTION_REASONS.find((r) => r.id === Number(fields['exemptionReasonId']))?.description ?? null,
        });
        if (method === 'POST' && !id) {
          const row = concessionRow({ ...withReason(), id: `con-${++ids}`, fileName: (form['file'] ?? 'file:x').slice(5) });
          state.concessions.push(row);
          return { status: 201, body: { ...row, message: 'Concession details saved successfully' } };
        }
        const at = state.concessions.findIndex((r) => r.id === id);
        if (at < 0) return { status: 404, body: problem(404, 'Not found') };
        if (method === 'PUT') {
          const row = { ...state.concessions[at]!, ...withReason(), reviewStatus: 'pending' as const };
          state.concessions[at] = row;
          return { status: 200, body: { ...row, message: 'Concession details updated successfully' } };
        }
        if (method === 'DELETE') {
          state.concessions.splice(at, 1);
          return { status: 200, body: { id } };
        }
        return undefined;
      }
      case 'vertical-mapping': {
        if (method === 'GET') return { status: 200, body: state.verticalMapping };
        if (method === 'POST' && !verb && !id) {
          state.verticalMapping = { ...state.verticalMapping, ...(body as object), reviewStatus: 'pending', reviewRemarks: null };
          return { status: 200, body: state.verticalMapping };
        }
        return undefined;
      }
      case 'company-codes': {
        if (method === 'GET') return { status: 200, body: state.companyCodes };
        if (method === 'POST') {
          const code = String(body['companyCode']);
          const row = companyCodeRow({ id: code, companyCode: code });
          state.companyCodes.push(row);
          return { status: 201, body: row };
        }
        return undefined;
      }
      case 'change-requests': {
        if (method === 'GET') return { status: 200, body: state.changeRequests };
        if (method === 'POST' && !id) {
          const row: ChangeRequestRow = {
            id: `cr-${++ids}`,
            baId: 'ba-1',
            section: body['section'] as ChangeRequestRow['section'],
            proposed: body['proposed'] as Record<string, unknown>,
            changes: {},
            status: 'pending',
            approvals: [],
            remarks: null,
            raisedBy: 'user-ba',
            raisedAt: AT,
            decidedBy: null,
            decidedAt: null,
            updatedAt: AT,
          };
          state.changeRequests.push(row);
          return { status: 201, body: row };
        }
        return undefined;
      }
      default:
        return undefined;
    }
  };

  return { intercept, state };
}

/** The base fake with the items fake plugged in (its own `intercept`, if any, answers first). */
export function onboardingFake(apiOptions: FakeApiOptions = {}, itemOptions: ItemsFakeOptions = {}) {
  const items = itemsFake({
    ...itemOptions,
    before: (req) => apiOptions.intercept?.(req) ?? itemOptions.before?.(req),
  });
  const api = fakeApi({ ...apiOptions, intercept: items.intercept });
  return { api, items: items.state };
}
