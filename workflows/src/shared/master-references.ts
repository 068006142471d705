import { masterDefinition } from '../../../domain/src/masters/definitions';
import type { ReferencedItem } from '../../../domain/src/masters/references';
import { parseCompanyDetails, type CompanyDetailsReferences } from '../../../domain/src/onboarding/details';
import { getMasterItems, type MasterItem } from '../../../projections/src/masters/masters.queries';
import type { Db } from '../../../projections/src/sql';

/**
 * Resolves the master items a command refers to, from the masters read model (master_items), for the
 * deciding activity and the API's early check. Never called from workflow code: what the masters say changes,
 * a workflow's history does not (design.md §11, "Workflow decisions depend only on history").
 */
export type MasterLookup = (resource: string, ids: readonly (number | string)[]) => Promise<MasterItem[]>;

export const masterLookup =
  (db: Db): MasterLookup =>
  (resource, ids) =>
    getMasterItems(db, resource, ids);

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
