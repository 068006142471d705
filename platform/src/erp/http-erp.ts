import {
  ErpUnavailableError,
  type ErpOperation,
  type ErpPort,
  type ErpRequestStatus,
  type ErpVendor,
} from '../../../domain/src/erp/port';

/**
 * The production ERP adapter: the HTTP contract of ARCHITECTURE.md ("The ERP contract") against `url`, with
 * `Authorization: Bearer <apiKey>`. What is an outage and what is an answer:
 * - no connection, a reset, a timeout (`timeoutMs` per call), a 5xx, a 429, a body that is not the JSON the
 *   contract promises → ErpUnavailableError (the caller retries with the same idempotency key);
 * - any other 4xx → a plain Error with the body's message (a bug or bad data: retrying cannot help);
 * - `GET …/requests/:id` 404 → an Error too (an id the ERP never gave out).
 */
export type HttpErpOptions = {
  url: string;
  apiKey: string;
  timeoutMs: number;
  /** For tests: a fetch to call instead of the global one. */
  fetch?: typeof fetch;
};

export type HttpErp = ErpPort & {
  /** One vendor by code; null when the ERP has none. */
  vendor(vendorCode: string): Promise<ErpVendor | null>;
  /** The ERP's vendor listing (`source=nucleus` for vendors created by the Nucleus mass upload). */
  listVendors(filter?: { source?: 'portal' | 'nucleus'; page?: number; perPage?: number }): Promise<{ vendors: ErpVendor[]; total: number }>;
};

/** An Error carrying the HTTP status the ERP answered (4xx other than the outage ones). */
export class ErpRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ErpRequestError';
  }
}

export function createHttpErp(options: HttpErpOptions): HttpErp {
  const base = options.url.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown, accept: number[] = []): Promise<{ status: number; body: T }> {
    const what = `${method} ${path}`;
    let response: Response;
    let text: string;
    try {
      // One signal for the whole exchange: an answer whose body never ends times out too.
      const signal = AbortSignal.timeout(options.timeoutMs);
      response = await doFetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
      text = await response.text();
    } catch (e) {
      const name = (e as { name?: string }).name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new ErpUnavailableError(`The ERP did not answer ${what} within ${options.timeoutMs} ms`);
      }
      throw new ErpUnavailableError(`The ERP could not be reached (${what}): ${reason(e)}`);
    }
    const status = response.status;
    const parsed = parseJson(text);
    const message = messageOf(parsed) ?? (text.trim().slice(0, 200) || response.statusText || `HTTP ${status}`);
    if (status >= 500 || status === 429 || status === 408) {
      throw new ErpUnavailableError(`The ERP answered ${status} to ${what}: ${message}`);
    }
    if ((status < 200 || status >= 300) && !accept.includes(status)) {
      throw new ErpRequestError(`The ERP refused ${what} (${status}): ${message}`, status);
    }
    if (parsed === undefined || parsed === null || typeof parsed !== 'object') {
      throw new ErpUnavailableError(`The ERP answered ${what} with ${status} but no JSON body`);
    }
    return { status, body: parsed as T };
  }

  return {
    async submit(idempotencyKey: string, operation: ErpOperation) {
      const { body } = await call<{ requestId?: unknown }>('POST', '/erp/v1/requests', { idempotencyKey, operation });
      if (typeof body.requestId !== 'string' || body.requestId === '') {
        throw new ErpUnavailableError('The ERP accepted the request without a request id');
      }
      return { requestId: body.requestId };
    },

    async status(requestId: string): Promise<ErpRequestStatus> {
      const { body } = await call<Partial<{ state: string; vendorCode: string; message: string; documentNumber: string }>>(
        'GET',
        `/erp/v1/requests/${encodeURIComponent(requestId)}`,
      );
      switch (body.state) {
        case 'pending':
          return { requestId, state: 'pending' };
        case 'done':
          if (typeof body.vendorCode !== 'string') throw new ErpUnavailableError(`The ERP answered done without a vendor code (${requestId})`);
          return {
            requestId,
            state: 'done',
            vendorCode: body.vendorCode,
            message: body.message ?? '',
            ...(typeof body.documentNumber === 'string' ? { documentNumber: body.documentNumber } : {}),
          };
        case 'rejected':
          return { requestId, state: 'rejected', message: body.message ?? 'Rejected by the ERP' };
        default:
          throw new ErpUnavailableError(`The ERP answered an unknown state ${JSON.stringify(body.state)} for ${requestId}`);
      }
    },

    async vendorsByPan(pan: string) {
      const { body } = await call<{ vendors?: unknown }>('GET', `/erp/v1/vendors?pan=${encodeURIComponent(pan)}`);
      if (!Array.isArray(body.vendors)) throw new ErpUnavailableError('The ERP answered a vendor search without vendors');
      return body.vendors as ErpVendor[];
    },

    async vendor(vendorCode: string) {
      const { status, body } = await call<ErpVendor>('GET', `/erp/v1/vendors/${encodeURIComponent(vendorCode)}`, undefined, [404]);
      return status === 404 ? null : body;
    },

    async listVendors(filter = {}) {
      const query = new URLSearchParams();
      if (filter.source) query.set('source', filter.source);
      query.set('page', String(filter.page ?? 1));
      query.set('perPage', String(filter.perPage ?? 100));
      const { body } = await call<{ vendors?: unknown; total?: unknown }>('GET', `/erp/v1/vendors?${query}`);
      if (!Array.isArray(body.vendors)) throw new ErpUnavailableError('The ERP answered a vendor listing without vendors');
      return { vendors: body.vendors as ErpVendor[], total: typeof body.total === 'number' ? body.total : body.vendors.length };
    },
  };
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function messageOf(body: unknown): string | undefined {
  if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string') {
    return (body as { message: string }).message;
  }
  return undefined;
}

function reason(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return cause.code;
  if (cause?.message) return cause.message;
  return e instanceof Error ? e.message : String(e);
}
