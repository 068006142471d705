/**
 * Reference data the company-details form needs before the Masters capability exists: a small fixed
 * catalogue of states, cities and services. Ids are stable because events store them.
 */
export type State = { id: number; name: string; stateCode: string };
export type City = { id: number; name: string; stateId: number };
export type Service = { id: number; name: string; slug: string };

export const STATES: readonly State[] = [
  { id: 27, name: 'Maharashtra', stateCode: 'MH' },
  { id: 29, name: 'Karnataka', stateCode: 'KA' },
  { id: 33, name: 'Tamil Nadu', stateCode: 'TN' },
  { id: 7, name: 'Delhi', stateCode: 'DL' },
  { id: 24, name: 'Gujarat', stateCode: 'GJ' },
  { id: 19, name: 'West Bengal', stateCode: 'WB' },
];

export const CITIES: readonly City[] = [
  { id: 2701, name: 'Mumbai', stateId: 27 },
  { id: 2702, name: 'Pune', stateId: 27 },
  { id: 2703, name: 'Nagpur', stateId: 27 },
  { id: 2901, name: 'Bengaluru', stateId: 29 },
  { id: 2902, name: 'Mysuru', stateId: 29 },
  { id: 3301, name: 'Chennai', stateId: 33 },
  { id: 3302, name: 'Coimbatore', stateId: 33 },
  { id: 701, name: 'New Delhi', stateId: 7 },
  { id: 2401, name: 'Ahmedabad', stateId: 24 },
  { id: 2402, name: 'Surat', stateId: 24 },
  { id: 1901, name: 'Kolkata', stateId: 19 },
];

export const SERVICES: readonly Service[] = [
  { id: 1, name: 'Transportation', slug: 'transportation' },
  { id: 2, name: 'Warehousing', slug: 'warehousing' },
  { id: 3, name: 'Freight Forwarding', slug: 'freight-forwarding' },
  { id: 4, name: 'Last Mile Delivery', slug: 'last-mile-delivery' },
];

export const COMPANIES = [
  { companyCode: '1000', name: 'MLL Logistics' },
  { companyCode: '2000', name: 'MLL Freight Services' },
] as const;

/**
 * The departments a BA user belongs to (spec 000 §3 "BA users table columns": department; §7 GET
 * /master/ba-departments). The old list is not shown: these are the functions of a transport business a
 * BA Admin hands work to. Ids are stable; events store the name.
 */
export type BaDepartment = { id: number; name: string };
export const BA_DEPARTMENTS: readonly BaDepartment[] = [
  { id: 1, name: 'Operations' },
  { id: 2, name: 'Accounts' },
  { id: 3, name: 'Finance' },
  { id: 4, name: 'Sales' },
  { id: 5, name: 'Management' },
  { id: 6, name: 'Fleet' },
  { id: 7, name: 'Compliance' },
  { id: 8, name: 'IT' },
];

export const cityById = (id: number | null | undefined): City | undefined => CITIES.find((c) => c.id === id);
export const stateById = (id: number | null | undefined): State | undefined => STATES.find((s) => s.id === id);
export const serviceById = (id: number | null | undefined): Service | undefined => SERVICES.find((s) => s.id === id);
export const baDepartmentByName = (name: string | null | undefined): BaDepartment | undefined =>
  BA_DEPARTMENTS.find((d) => d.name === name);
