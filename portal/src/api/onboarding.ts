import type { BankAccount, GstRegistration, VerticalMapping } from '../../../domain/src/onboarding/items';
import { newIdempotencyKey, type ApiClient, type BusinessAssociate } from './client';

/**
 * The onboarding items of issue 8 (bank accounts, GST rows, documents, concessions, vertical mapping, change
 * requests, other company codes): the API's row shapes (api/src/contract.ts) and the calls. Commands carry an Idempotency-Key; uploads go as multipart FormData.
 */

export type {
  BankAccountRow,
  ChangeRequestRow,
  CompanyCodeRow,
  ConcessionRow,
  DocumentKind,
  DocumentRow,
  GstRegistrationRow,
  ReviewStatus,
  VerticalMappingRow,
} from '../../../api/src/contract';
import type {
  BankAccountRow,
  ChangeRequestRow,
  CompanyCodeRow,
  ConcessionRow,
  DocumentKind,
  DocumentRow,
  GstRegistrationRow,
  VerticalMappingRow,
} from '../../../api/src/contract';

/** The upload fields of POST …/documents besides the file. */
export type DocumentUpload = {
  documentTypeId: number;
  kind?: DocumentKind;
  documentNumber?: string | null;
  validTill?: string | null;
  stateId?: number | null;
};

/** The concession form's fields (all text on the wire: multipart). */
export type ConcessionInput = {
  exemptionNumber: string;
  exemptionRate: string;
  exemptionFrom: string;
  exemptionTo: string;
  exemptionReasonId: number;
  exemptionThreshold: string;
  withHoldingTaxType: string;
  withHoldingTaxCode: string;
  sectionCode: string;
};

/** Master rows as the selects use them (GET /api/<resource>: id, status, updatedAt and the master's fields). */
export type DocumentTypeOption = {
  id: number;
  name: string;
  mandatoryServiceIds: number[];
  needsValidityDate: boolean;
  isGstDocument: boolean;
};
export type AdditionalDocumentTypeOption = { id: number; name: string; needsValidityDate: boolean };
export type GstTypeOption = { id: number; code: GstRegistration['gstType']; name: string };
export type NamedOption = { id: number; name: string };
export type ZoneOption = NamedOption & { stateIds: number[] };
export type BankKeyOption = { id: number; bankCode: string; description: string };
export type ExemptionReasonOption = { id: number; reasonCode: string; description: string };
export type TaxTypeOption = {
  id: number;
  taxType: string;
  taxCode: string;
  taxName: string;
  taxRate: number;
  sectionCode: string;
};
export type SectionCodeOption = { id: number; sectionCode: string; description: string };

/** The API caps list pages at 100 rows; a BA's items and the reference lists are fewer. */
const PAGE = JSON.stringify([0, 99]);
const query = (filter: Record<string, unknown> = {}) =>
  `?${new URLSearchParams({ filter: JSON.stringify(filter), range: PAGE }).toString()}`;

function formOf(file: File | null, fields: Record<string, string | number | null | undefined>): FormData {
  const form = new FormData();
  // Text fields first: the API may read them before it streams the file.
  for (const [k, v] of Object.entries(fields)) if (v !== null && v !== undefined && v !== '') form.append(k, String(v));
  if (file) form.append('file', file, file.name);
  return form;
}

export function onboardingApi(client: ApiClient, baId: string) {
  const base = `/api/business-associates/${encodeURIComponent(baId)}`;
  const at = (...parts: string[]) => [base, ...parts.map(encodeURIComponent)].join('/');
  const post = <T>(path: string, body: unknown) =>
    client.call<T>(path, { method: 'POST', body, idempotencyKey: newIdempotencyKey() });
  const put = <T>(path: string, body: unknown) => client.call<T>(path, { method: 'PUT', body });
  const remove = (path: string) => client.call<{ id: string; message?: string }>(path, { method: 'DELETE' });

  return {
    // Bank accounts.
    bankAccounts: () => client.call<BankAccountRow[]>(`${at('bank-accounts')}${query()}`),
    addBankAccount: (body: BankAccount) => post<BankAccountRow>(at('bank-accounts'), body),
    updateBankAccount: (id: string, body: BankAccount) => put<BankAccountRow>(at('bank-accounts', id), body),
    deleteBankAccount: (id: string) => remove(at('bank-accounts', id)),

    // GST / places of business.
    gstRegistrations: () => client.call<GstRegistrationRow[]>(`${at('gst-registrations')}${query()}`),
    addGstRegistration: (body: GstRegistration) => post<GstRegistrationRow>(at('gst-registrations'), body),
    updateGstRegistration: (id: string, body: GstRegistration) =>
      put<GstRegistrationRow>(at('gst-registrations', id), body),
    deleteGstRegistration: (id: string) => remove(at('gst-registrations', id)),

    // Documents (onboarding and, once verified, additional).
    documents: (kind: DocumentKind) => client.call<DocumentRow[]>(`${at('documents')}${query({ kind })}`),
    uploadDocument: (file: File, upload: DocumentUpload) =>
      post<DocumentRow & { message?: string }>(
        at('documents'),
        formOf(file, {
          documentTypeId: upload.documentTypeId,
          kind: upload.kind,
          documentNumber: upload.documentNumber,
          validTill: upload.validTill,
          stateId: upload.stateId,
        }),
      ),
    deleteDocument: (id: string) => remove(at('documents', id)),
    documentFile: (id: string) => client.fileCall(at('documents', id, 'file')),

    // Concessions / lower-deduction certificates.
    concessions: () => client.call<ConcessionRow[]>(`${at('concessions')}${query()}`),
    addConcession: (file: File, input: ConcessionInput) =>
      post<ConcessionRow & { message?: string }>(at('concessions'), formOf(file, input)),
    updateConcession: (id: string, file: File | null, input: ConcessionInput) =>
      put<ConcessionRow & { message?: string }>(at('concessions', id), formOf(file, input)),
    deleteConcession: (id: string) => remove(at('concessions', id)),
    concessionFile: (id: string) => client.fileCall(at('concessions', id, 'file')),

    // Vertical mapping.
    verticalMapping: () => client.call<VerticalMappingRow>(at('vertical-mapping')),
    saveVerticalMapping: (body: VerticalMapping) => post<VerticalMappingRow>(at('vertical-mapping'), body),

    /** Submission of the first application, or of another company code's. */
    submit: (companyCode?: string) =>
      post<BusinessAssociate>(at('submit'), companyCode ? { companyCode } : {}),

    // Verified profile: change requests and other company codes.
    changeRequests: () => client.call<ChangeRequestRow[]>(`${at('change-requests')}${query()}`),
    requestChange: (section: ChangeRequestRow['section'], proposed: Record<string, unknown>) =>
      post<ChangeRequestRow>(at('change-requests'), { section, proposed }),
    companyCodes: () => client.call<CompanyCodeRow[]>(`${at('company-codes')}${query()}`),
    applyForCompanyCode: (companyCode: string) => post<CompanyCodeRow>(at('company-codes'), { companyCode }),
  };
}

export type OnboardingApi = ReturnType<typeof onboardingApi>;

/** The reference lists the onboarding tabs read (spec 000 §3 "BA onboarding state"). */
export function onboardingMasters(client: ApiClient) {
  const list = <T>(resource: string, filter: Record<string, unknown> = {}) =>
    client.call<T[]>(`/api/${resource}${query(filter)}`);
  return {
    documentTypes: () => list<DocumentTypeOption>('document-types'),
    additionalDocumentTypes: () => list<AdditionalDocumentTypeOption>('additional-document-types'),
    gstTypes: () => list<GstTypeOption>('gst-types'),
    verticals: () => list<NamedOption>('verticals'),
    vehicleTypes: () => list<NamedOption>('vehicle-types'),
    zones: () => list<ZoneOption>('zones'),
    exemptionReasons: () => list<ExemptionReasonOption>('exemption-reasons'),
    taxTypes: () => list<TaxTypeOption>('tax-types'),
    sectionCodes: () => list<SectionCodeOption>('section-codes'),
    /**
     * The bank of an IFSC prefix. The masters list takes `q` (a text search over the item), not a field filter,
     * so the exact bank code is picked from what it finds.
     */
    bankByCode: async (bankCode: string): Promise<BankKeyOption | null> => {
      const rows = await list<BankKeyOption>('bank-keys', { q: bankCode });
      return rows.find((r) => r.bankCode.toUpperCase() === bankCode.toUpperCase()) ?? null;
    },
  };
}

export type OnboardingMasters = ReturnType<typeof onboardingMasters>;
