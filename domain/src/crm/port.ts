/**
 * What the portal asks of the CRM (the customer opportunities an RFP starts from, spec 001 §2 step 1), as a
 * port: the api calls it while staff fill the wizard's first step, the production adapter
 * (platform/src/crm/http-crm.ts) speaks the HTTP contract documented in ARCHITECTURE.md ("The CRM contract")
 * to `CRM_URL`, and the sandbox CRM (sandboxes/crm) answers the same contract with seeded opportunities.
 *
 * Only reads: the portal never changes the CRM, so there are no idempotency keys here.
 */

/** The system an opportunity comes from (spec 001 §9: "Default source system SCM"). */
export const DEFAULT_SOURCE_SYSTEM = 'SCM';

/**
 * One opportunity, with the step-1 fields of spec 001 §2 the CRM can fill (the RFP code is the portal's own).
 * Amounts are decimal strings in rupees (digits, up to 2 decimals: the amount pattern of
 * domain/src/validation/fields.ts), so they are never rounded and drop into the step-1 form as they are.
 * Dates are calendar dates, YYYY-MM-DD. State, vertical and service names are those of the reference data.
 */
export type Opportunity = {
  /** The CRM's opportunity id, e.g. 'OPP-2026-0001'. */
  casshOppId: string;
  oppDescription: string;
  rfpValue: string;
  /** When MLL received the opportunity, and when the RFP must be answered by. */
  receiveDate: string;
  dueDate: string;
  productDescription: string | null;
  /** The CRM's customer account id. */
  casshAccId: string;
  customerName: string;
  totalLogisticsSpent: string | null;
  contactPerson: string | null;
  contactDetails: string;
  customerAddress: string;
  /** The customer's own dates for the tender (received from / due back to the customer). */
  customerReceiveDate: string;
  customerDueDate: string;
  verticalName: string;
  sourceState: string;
  destinationState: string;
  serviceType: string;
  subServiceType: string;
  sourceSystem: string;
};

/**
 * A lookup by id: `fail` carries the CRM's own message ('Opportunity not found'), which the wizard shows as it
 * is (spec 001 §5: "An opportunity lookup whose status is fail shows the server message").
 */
export type OpportunityLookup =
  | { status: 'success'; message: string; opportunity: Opportunity }
  | { status: 'fail'; message: string };

/** A search's page: `total` counts every match, `opportunities` holds at most the limit asked for. */
export type OpportunitySearch = { opportunities: Opportunity[]; total: number };

/** The most a search answers at once (a picker, not a report). */
export const MAX_OPPORTUNITY_SEARCH = 50;

/**
 * The CRM could not be reached, timed out, or answered 5xx / 429 / something that is not the contract: the
 * call may be retried later. The api answers 503 with this message.
 */
export class CrmUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CrmUnavailableError';
  }
}

/** What users are told when the CRM is down (the adapter's message says why, for the logs). */
export const CRM_UNAVAILABLE_MESSAGE = 'The CRM is not available right now. Please try again shortly';

export type CrmPort = {
  /** One opportunity by id; `sourceSystem` narrows the lookup to one system (the CRM answers fail otherwise). */
  opportunity(id: string, options?: { sourceSystem?: string }): Promise<OpportunityLookup>;
  /**
   * Opportunities whose id starts with `q` or whose customer name contains it (case-insensitive), newest
   * receive date first; an empty `q` lists them all. `limit` defaults to 20, at most MAX_OPPORTUNITY_SEARCH.
   */
  searchOpportunities(q: string, options?: { limit?: number }): Promise<OpportunitySearch>;
};
