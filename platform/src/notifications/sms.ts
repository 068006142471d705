import type { SmsTransport } from './delivery';

export type SmsGatewayOptions = {
  /**
   * The gateway's URL with `{to}` and `{text}` where the mobile number and the message go, e.g.
   * `https://sms.example.com/send?key=KEY&to={to}&text={text}`. Both are URL-encoded.
   */
  urlTemplate: string;
  method?: 'GET' | 'POST';
  /** An answer slower than this counts as a failure (default 10 s). */
  timeoutMs?: number;
};

/** The URL of one message: each placeholder replaced once, so text containing "{to}" stays literal. */
export const smsGatewayUrl = (urlTemplate: string, to: string, text: string): string =>
  urlTemplate.replace(/\{(to|text)\}/g, (_m, key: string) => encodeURIComponent(key === 'to' ? to : text));

/**
 * SMS through an HTTP gateway: one request per message, any answer but 2xx is a failure (retried by the
 * delivery loop). Errors never quote the URL, which usually carries the gateway's API key.
 */
export function createSmsGateway({ urlTemplate, method = 'GET', timeoutMs = 10_000 }: SmsGatewayOptions): SmsTransport {
  return {
    async send({ to, text }) {
      let response: Response;
      try {
        response = await fetch(smsGatewayUrl(urlTemplate, to, text), { method, signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        // The abort is a DOMException, not always an Error of this realm: go by its name.
        const { name, message, cause } = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
        const reason =
          name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (cause?.code ?? cause?.message ?? message ?? String(error));
        throw new Error(`SMS gateway unreachable: ${reason}`);
      }
      // Read the body either way, so the connection is released for the next message.
      const body = await response.text().catch(() => '');
      if (!response.ok) {
        const detail = body.trim().replace(/\s+/g, ' ').slice(0, 200);
        throw new Error(`SMS gateway answered ${response.status}${detail ? `: ${detail}` : ''}`);
      }
    },
  };
}
