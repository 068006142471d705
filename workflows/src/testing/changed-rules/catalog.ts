import * as today from '../../../../domain/src/masters/catalog';

/*
 * The reference catalogue as an administrator might have edited it after the journeys in
 * `decide-in-activity.int.test.ts` ran: a city deleted, a service replaced, a company code retired. Bundled in
 * place of domain/src/masters/catalog.ts (see ./bundle.ts); everything not named here is today's.
 */
export * from '../../../../domain/src/masters/catalog';

/** Mumbai (2701), the city of the scenarios' company details, deleted. */
export const CITIES: readonly today.City[] = today.CITIES.filter((c) => c.id !== 2701);

/** Transportation (1), the scenarios' service, replaced by a new row under a new id. */
export const SERVICES: readonly today.Service[] = [
  ...today.SERVICES.filter((s) => s.id !== 1),
  { id: 5, name: 'Road Transportation', slug: 'road-transportation' },
];

/** Company code 1000, the scenarios' company, retired; a new one added. */
export const COMPANIES = [
  { companyCode: '2000', name: 'MLL Freight Services' },
  { companyCode: '3000', name: 'MLL Express' },
] as const;
