import {
  bankAccountSchema,
  concessionSchema,
  documentMetaSchema,
  gstinPanMismatch,
  gstRegistrationSchema,
  itemMessages,
  verticalMappingSchema,
} from '../../../domain/src/onboarding/items-schema';
import type { BankAccount, GstRegistration, VerticalMapping } from '../../../domain/src/onboarding/items';
import { extensionOf, kindRule, acceptOf, uploadMessages, type FileKind } from '../../../domain/src/validation/files';
import type { CityOption } from '../api/client';
import type { ConcessionInput, DocumentUpload } from '../api/onboarding';
import { check, type Errors } from './itemFields';

/**
 * The onboarding tabs' checks before anything is sent: the domain's shared zod schemas (items-schema.ts, the
 * rules the API and the decider run), plus what the form alone knows (the loaded cities of the state, the BA's
 * PAN, whether a document type needs a validity date, the chosen file). The API checks everything again.
 */
export type Checked<T> = { ok: true; data: T } | { ok: false; errors: Errors };

export const NOT_REGISTERED = '0';

/** Which upload rule (spec 000 §5 "Files") documents and certificates follow; the API applies the same. */
export const DOCUMENT_FILE_KIND: FileKind = 'document';
export const CONCESSION_FILE_KIND: FileKind = 'imageOrPdf';
export const documentAccept = acceptOf(DOCUMENT_FILE_KIND);
export const concessionAccept = acceptOf(CONCESSION_FILE_KIND);

export function validateBankAccount(values: Record<keyof BankAccount, string>): Checked<BankAccount> {
  return check(bankAccountSchema, values);
}

export function validateGstRegistration(
  values: Record<keyof GstRegistration, string>,
  context: { panNumber: string | null; cities: readonly CityOption[] },
): Checked<GstRegistration> {
  // The select's '' means "not chosen"; the spec's '' (GST Registered) arrives as its own name (GstTab).
  const gstType = values.gstType === '' ? undefined : values.gstType === 'registered' ? '' : values.gstType;
  const parsed = check(gstRegistrationSchema, { ...values, gstType });
  if (!parsed.ok) return parsed;
  const errors: Errors = {};
  const pan = gstinPanMismatch(parsed.data.gstNo, context.panNumber);
  if (pan) errors['gstNo'] = pan;
  if (context.cities.length > 0 && !context.cities.some((c) => c.id === parsed.data.cityId))
    errors['cityId'] = itemMessages.cityId;
  return Object.keys(errors).length > 0 ? { ok: false, errors } : parsed;
}

/** Today as YYYY-MM-DD in the browser's calendar (a validity date must be today or later). */
export const today = (now = new Date()): string =>
  `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;

/** A file the spec's rule takes: present, not empty, one of the kind's extensions (the server also sniffs bytes). */
export function fileProblem(file: File | null, kind: FileKind): string | null {
  if (!file) return uploadMessages.noFile;
  const rule = kindRule(kind);
  const ext = extensionOf(file.name);
  if (!ext || !rule.extensions.includes(ext)) return rule.message;
  if (file.size === 0) return uploadMessages.empty;
  return null;
}

export function validateDocument(
  values: { documentNumber: string; validTill: string; stateId: string },
  context: { documentTypeId: number; kind: 'onboarding' | 'additional'; needsValidityDate: boolean; file: File | null },
): Checked<DocumentUpload> {
  const errors: Errors = {};
  const parsed = check(documentMetaSchema, { ...values, documentTypeId: context.documentTypeId, kind: context.kind });
  if (!parsed.ok) Object.assign(errors, parsed.errors);
  if (context.needsValidityDate && values.validTill.trim() === '') errors['validTill'] = itemMessages.validTillRequired;
  else if (values.validTill.trim() !== '' && values.validTill < today() && !errors['validTill'])
    errors['validTill'] = itemMessages.validTillPast;
  const file = fileProblem(context.file, DOCUMENT_FILE_KIND);
  if (file) errors['file'] = file;
  if (!parsed.ok || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, data: parsed.data };
}

export function validateConcession(
  values: Record<keyof ConcessionInput, string>,
  file: File | null,
  fileRequired: boolean,
): Checked<ConcessionInput> {
  const errors: Errors = {};
  const parsed = check(concessionSchema, values);
  if (!parsed.ok) Object.assign(errors, parsed.errors);
  const problem = file || fileRequired ? fileProblem(file, CONCESSION_FILE_KIND) : null;
  if (problem) errors['file'] = problem;
  if (!parsed.ok || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, data: parsed.data };
}

export function validateVerticalMapping(values: VerticalMapping): Checked<VerticalMapping> {
  return check(verticalMappingSchema, values);
}
