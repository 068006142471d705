import { masterDefinition } from '../../../domain/src/masters/definitions';
import type { ReferencedItem } from '../../../domain/src/masters/references';
import type { DocumentTypeRef, StateRef } from '../../../domain/src/onboarding/commands';
import { parseCompanyDetails, type CompanyDetailsReferences } from '../../../domain/src/onboarding/details';
import { VERTICAL_MAPPING_MASTERS, type DocumentKind } from '../../../domain/src/onboarding/items';
import { allMasterItems, getMasterItems, type MasterItem } from '../../../projections/src/masters/masters.queries';
import type { Db } from '../../../projections/src/sql';

/**
 * Resolves the master items a command refers to, from the masters read model (master_items), for the
 * deciding activity and the API's early check. Never called from workflow code: what the masters say changes,
 * a workflow's history does not (design.md §11, "Workflow decisions depend only on history").
 */
export type MasterLookup = (resource: string, ids: readonly (number | string)[] | 'all') => Promise<MasterItem[]>;

export const masterLookup =
  (db: Db): MasterLookup =>
  async (resource, ids) => {
    if (ids !== 'all') return getMasterItems(db, resource, ids);
    const items: MasterItem[] = [];
    for await (const page of allMasterItems(db, resource)) items.push(...page);
    return items;
  };

/** For a process without a database: every decision needing the masters fails (and is retried) loudly. */
export const noMasterLookup: MasterLookup = () =>
  Promise.reject(new Error('The masters are not available here: give the activities a database (createActivities({ pool }))'));

const asReference = (item: MasterItem | undefined): ReferencedItem | null => {
  if (!item) return null;
  const stateId = item['stateId'];
  return { id: item.id, status: item.status, ...(typeof stateId === 'number' ? { stateId } : {}) };
};

async function one(lookup: MasterLookup, resource: string, id: number | string | null): Promise<ReferencedItem | null> {
  if (id === null) return null;
  // The definitions name the masters: a typo here fails at once rather than resolving nothing.
  masterDefinition(resource);
  const [item] = await lookup(resource, [id]);
  return asReference(item);
}

/**
 * The service, state and city company details name, as the masters hold them now. Details that break the
 * field rules resolve nothing: the decider refuses them for their shape first.
 */
export async function resolveCompanyDetailReferences(
  lookup: MasterLookup,
  details: unknown,
): Promise<CompanyDetailsReferences> {
  const parsed = parseCompanyDetails(details);
  if (!parsed.ok) return { service: null, state: null, city: null };
  const { serviceId, stateId, cityId } = parsed.details;
  const [service, state, city] = await Promise.all([
    one(lookup, 'services', serviceId),
    one(lookup, 'states', stateId),
    one(lookup, 'cities', cityId),
  ]);
  return { service, state, city };
}

/** The company of a company code, as the Companies master holds it now (null: no such company). */
export const resolveCompany = (lookup: MasterLookup, companyCode: string): Promise<ReferencedItem | null> =>
  one(lookup, 'companies', companyCode);

/** A master id as raw input names it (a number or a digit string), or null. */
function idIn(raw: unknown, key: string): number | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const v = (raw as Record<string, unknown>)[key];
  if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return v;
  if (typeof v === 'string' && /^\s*\d{1,15}\s*$/.test(v)) return Number(v);
  return null;
}

/** The ids of a raw list field (numbers or digit strings); anything else is left out, the decider refuses it. */
function idsIn(raw: unknown, key: string): number[] {
  if (typeof raw !== 'object' || raw === null) return [];
  const v = (raw as Record<string, unknown>)[key];
  if (!Array.isArray(v)) return [];
  return [...new Set(v.map((x) => idIn({ x }, 'x')).filter((x): x is number => x !== null))];
}

const documentTypeRef = (item: MasterItem, kind: DocumentKind): DocumentTypeRef => ({
  id: Number(item.id),
  name: typeof item['name'] === 'string' ? item['name'] : String(item.id),
  status: item.status,
  kind,
  mandatoryServiceIds: Array.isArray(item['mandatoryServiceIds']) ? item['mandatoryServiceIds'].map(Number) : [],
  needsValidityDate: item['needsValidityDate'] === true,
  isGstDocument: kind === 'onboarding' && item['isGstDocument'] === true,
});

const DOCUMENT_MASTERS: Record<DocumentKind, string> = {
  onboarding: 'document-types',
  additional: 'additional-document-types',
};

/** Every row of the documents master (kind 'onboarding'), inactive ones included: the decider says which count. */
export async function resolveDocumentTypes(lookup: MasterLookup): Promise<DocumentTypeRef[]> {
  return (await lookup(DOCUMENT_MASTERS.onboarding, 'all')).map((item) => documentTypeRef(item, 'onboarding'));
}

/** The document's type, from the documents master or the additional-documents master by the document's `kind`. */
export async function resolveDocumentType(lookup: MasterLookup, document: unknown): Promise<DocumentTypeRef | null> {
  const kind: DocumentKind =
    typeof document === 'object' && document !== null && (document as { kind?: unknown }).kind === 'additional'
      ? 'additional'
      : 'onboarding';
  const id = idIn(document, 'documentTypeId');
  if (id === null) return null;
  const [item] = await lookup(DOCUMENT_MASTERS[kind], [id]);
  return item ? documentTypeRef(item, kind) : null;
}

/** The state of a GST row with its GST state code (what the GSTIN must start with), and its city. */
export async function resolveGstReferences(
  lookup: MasterLookup,
  registration: unknown,
): Promise<{ state: StateRef | null; city: ReferencedItem | null }> {
  const stateId = idIn(registration, 'stateId');
  const [stateItem] = stateId === null ? [] : await lookup('states', [stateId]);
  const state = asReference(stateItem);
  const gstStateCode = stateItem?.['gstStateCode'];
  return {
    state: state && { ...state, gstStateCode: typeof gstStateCode === 'string' ? gstStateCode : null },
    city: await one(lookup, 'cities', idIn(registration, 'cityId')),
  };
}

/** The exemption reason a concession names. */
export const resolveExemptionReason = (lookup: MasterLookup, concession: unknown): Promise<ReferencedItem | null> =>
  one(lookup, 'exemption-reasons', idIn(concession, 'exemptionReasonId'));

/**
 * The items a vertical mapping names, keyed by the mapping's field (`verticalIds` → the verticals found); an id
 * with no item is simply missing from its list, which the decider refuses.
 */
export async function resolveVerticalMappingReferences(
  lookup: MasterLookup,
  mapping: unknown,
): Promise<Record<string, ReferencedItem[]>> {
  const entries = await Promise.all(
    Object.entries(VERTICAL_MAPPING_MASTERS).map(async ([field, resource]) => {
      const ids = idsIn(mapping, field);
      const items = ids.length === 0 ? [] : await lookup(resource, ids);
      return [field, items.map((i) => asReference(i)).filter((r): r is ReferencedItem => r !== null)] as const;
    }),
  );
  return Object.fromEntries(entries);
}
