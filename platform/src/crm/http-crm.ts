import { z } from 'zod';
import {
  CrmUnavailableError,
  DEFAULT_SOURCE_SYSTEM,
  MAX_OPPORTUNITY_SEARCH,
  type CrmPort,
  type Opportunity,
  type OpportunityLookup,
  type OpportunitySearch,
} from '../../../domain/src/crm/port';

/**
 * The production CRM adapter: the HTTP contract of ARCHITECTURE.md ("The CRM contract") against `url`, with
 * `Authorization: Bearer <apiKey>`. What is an outage and what is an answer:
 * - no connection, a reset, a timeout (`timeoutMs` per call), a 5xx, a 408 or 429, a body that is not the
 *   contract's JSON → CrmUnavailableError (the api answers 503);
 * - `{ status: 'fail', message }` (with 404 or 200) → a `fail` lookup carrying the CRM's message as it is;
 * - any other 4xx (a wrong key, a wrong URL) → CrmRequestError: our configuration is wrong, not the user's input.
 */
export type HttpCrmOptions = {
  url: string;
  apiKey: string;
  timeoutMs: number;
  /** For tests: a fetch to call instead of the global one. */
  fetch?: typeof fetch;
};

/** An Error carrying the HTTP status the CRM answered (4xx other than a `fail` answer and the outage ones). */
export class CrmRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'CrmRequestError';
  }
}

const text = z.string().trim().min(1);
const maybe = z
  .string()
  .nullish()
  .transform((v) => (v === undefined || v === null || v.trim() === '' ? null : v));
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'a YYYY-MM-DD date' });
const amount = z.union([z.string(), z.number()]).transform((v) => String(v));
const maybeAmount = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v === undefined || v === null || v === '' ? null : String(v)));

/** An opportunity as the contract sends it; unknown members are ignored (a CRM may send more). */
const opportunitySchema = z.object({
  casshOppId: text,
  oppDescription: text,
  rfpValue: amount,
  receiveDate: date,
  dueDate: date,
  productDescription: maybe,
  casshAccId: text,
  customerName: text,
  totalLogisticsSpent: maybeAmount,
  contactPerson: maybe,
  contactDetails: text,
  customerAddress: text,
  customerReceiveDate: date,
  customerDueDate: date,
  verticalName: text,
  sourceState: text,
  destinationState: text,
  serviceType: text,
  subServiceType: text,
  sourceSystem: z.string().nullish().transform((v) => (v ? v : DEFAULT_SOURCE_SYSTEM)),
}) satisfies z.ZodType<Opportunity, unknown>;

export function createHttpCrm(options: HttpCrmOptions): CrmPort {
  const base = options.url.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;

  async function get(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const what = `GET ${path}`;
    let response: Response;
    let raw: string;
    try {
      // One signal for the whole exchange: an answer whose body never ends times out too.
      response = await doFetch(`${base}${path}`, {
        headers: { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' },
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      raw = await response.text();
    } catch (e) {
      const name = (e as { name?: string }).name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new CrmUnavailableError(`The CRM did not answer ${what} within ${options.timeoutMs} ms`);
      }
      throw new CrmUnavailableError(`The CRM could not be reached (${what}): ${reason(e)}`);
    }
    const status = response.status;
    const body = parseJson(raw);
    const message = messageOf(body) ?? (raw.trim().slice(0, 200) || response.statusText || `HTTP ${status}`);
    if (status >= 500 || status === 429 || status === 408) {
      throw new CrmUnavailableError(`The CRM answered ${status} to ${what}: ${message}`);
    }
    const isFail = body !== null && body['status'] === 'fail';
    if ((status < 200 || status >= 300) && !(status === 404 && isFail)) {
      throw new CrmRequestError(`The CRM refused ${what} (${status}): ${message}`, status);
    }
    if (body === null) throw new CrmUnavailableError(`The CRM answered ${what} with ${status} but no JSON body`);
    return { status, body };
  }

  return {
    async opportunity(id, lookup = {}): Promise<OpportunityLookup> {
      const query = lookup.sourceSystem ? `?sourceSystem=${encodeURIComponent(lookup.sourceSystem)}` : '';
      const { body } = await get(`/crm/v1/opportunities/${encodeURIComponent(id)}${query}`);
      if (body['status'] === 'fail') {
        // The CRM's own words are what the user sees; a fail without any is still a fail.
        const given = body['message'];
        const message = typeof given === 'string' && given.trim() ? given : 'Opportunity not found';
        return { status: 'fail', message };
      }
      if (body['status'] !== 'success') {
        throw new CrmUnavailableError(`The CRM answered an unknown status ${JSON.stringify(body['status'])} for opportunity ${id}`);
      }
      const opportunity = parseOpportunity(body['data'], `opportunity ${id}`);
      return { status: 'success', message: typeof body['message'] === 'string' ? body['message'] : '', opportunity };
    },

    async searchOpportunities(q, search = {}): Promise<OpportunitySearch> {
      const limit = Math.min(MAX_OPPORTUNITY_SEARCH, Math.max(1, Math.floor(search.limit ?? 20)));
      const query = new URLSearchParams({ q: q.trim(), limit: String(limit) });
      const { body } = await get(`/crm/v1/opportunities?${query}`);
      if (body['status'] !== 'success' || !Array.isArray(body['data'])) {
        throw new CrmUnavailableError('The CRM answered an opportunity search without a list of opportunities');
      }
      const opportunities = body['data'].map((o, i) => parseOpportunity(o, `search result ${i}`));
      const total = typeof body['total'] === 'number' ? body['total'] : opportunities.length;
      return { opportunities, total };
    },
  };
}

function parseOpportunity(data: unknown, what: string): Opportunity {
  const parsed = opportunitySchema.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'data'}: ${i.message}`).join('; ');
    throw new CrmUnavailableError(`The CRM answered ${what} outside the contract (${problems})`);
  }
  return parsed.data;
}

function parseJson(raw: string): Record<string, unknown> | null {
  if (raw.trim() === '') return null;
  try {
    const value = JSON.parse(raw) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function messageOf(body: Record<string, unknown> | null): string | undefined {
  return typeof body?.['message'] === 'string' ? body['message'] : undefined;
}

function reason(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return cause.code;
  if (cause?.message) return cause.message;
  return e instanceof Error ? e.message : String(e);
}
