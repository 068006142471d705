import { MASTERS, type MasterDefinition } from '../../../domain/src/masters/definitions';

/**
 * Console routes of the Masters application (spec 000 §2 "Master-data routes"): everything under
 * /meta-data. react-admin fixes a resource's routes to /<resource name>; the resource name is the API's
 * (`cities`), so the screens are mounted as custom routes at /meta-data/<consolePath> and every link of
 * the capability is built here rather than by react-admin's createPath.
 */
export const MASTERS_BASE = '/meta-data';
export const MASTERS_DASHBOARD_PATH = `${MASTERS_BASE}/dashboard`;

/** The path segment under /meta-data: the spec's route, or the resource name for masters the spec has none for. */
export const segmentOf = (def: MasterDefinition): string => def.consolePath ?? def.resource;

export const masterListPath = (def: MasterDefinition): string => `${MASTERS_BASE}/${segmentOf(def)}`;
export const masterCreatePath = (def: MasterDefinition): string => `${masterListPath(def)}/create`;
export const masterEditPath = (def: MasterDefinition, id: string | number): string =>
  `${masterListPath(def)}/${encodeURIComponent(String(id))}`;

/**
 * The Masters sidebar of spec 000 §2, in its order, with its short names; the masters it does not list
 * follow under "More masters" in the order of MASTERS.
 */
const SIDEBAR: readonly (readonly [resource: string, label: string])[] = [
  ['bank-keys', 'Bank'],
  ['cities', 'City'],
  ['collections', 'Collection'],
  ['email-templates', 'Email Template'],
  ['locations', 'Location'],
  ['payment-terms', 'Payment Term'],
  ['section-codes', 'Section Code'],
  ['services', 'Service'],
  ['states', 'State'],
  ['tax-types', 'Tax Type'],
  ['vehicle-types', 'Vehicle Type'],
  ['vendor-recon-accounts', 'Vendor Recon'],
  ['vendor-types', 'Vendor Type'],
];

export type SidebarEntry = { def: MasterDefinition; label: string };

const byResource = new Map(MASTERS.map((d) => [d.resource, d]));

export const SIDEBAR_MASTERS: readonly SidebarEntry[] = SIDEBAR.flatMap(([resource, label]) => {
  const def = byResource.get(resource);
  return def ? [{ def, label }] : [];
});

export const MORE_MASTERS: readonly SidebarEntry[] = MASTERS.filter(
  (d) => !SIDEBAR.some(([resource]) => resource === d.resource),
).map((def) => ({ def, label: def.label }));
