import type { Pool } from 'pg';
import type { Config } from '../config';
import { createDelivery, type Delivery, type DeliveryOptions } from './delivery';
import { createSmsGateway } from './sms';
import { createSmtpTransport } from './smtp';

/**
 * Notifications (design.md §11): an outbox of e-mails and SMS written with the change that causes them and
 * delivered by the worker. Callers write with `enqueueMessages(client, messages)` inside their transaction.
 */
export { ensureOutboxSchema, OUTBOX_CHANNEL } from './schema';
export {
  enqueueMessages,
  listOutbox,
  OUTBOX_SORT_FIELDS,
  type Db,
  type EnqueueOptions,
  type OutboxEntry,
  type OutboxItem,
  type OutboxMessage,
  type OutboxQuery,
  type OutboxSortField,
} from './outbox';
export {
  codeInMessage,
  isTemplateName,
  placeholdersOf,
  renderTemplate,
  TEMPLATE_NAMES,
  TEMPLATES,
  TemplateError,
  type Channel,
  type MessageTemplate,
  type RenderedMessage,
  type TemplateName,
} from './templates';
export {
  createDelivery,
  NO_TRANSPORT,
  OUTBOX_LISTENER_APPLICATION_NAME,
  retryDelayMs,
  type Delivery,
  type DeliveryOptions,
  type DeliveryPass,
  type EmailTransport,
  type SmsTransport,
} from './delivery';
export { createSmtpTransport, DEFAULT_SMTP_FROM, type SmtpOptions } from './smtp';
export { createSmsGateway, smsGatewayUrl, type SmsGatewayOptions } from './sms';

/**
 * The delivery loop with the transports the configuration names (SMTP_URL, SMS_GATEWAY_URL); stopping it
 * also closes the SMTP transport.
 */
export function createConfiguredDelivery(
  { pool, notifications, log }: { pool: Pool; notifications: Config['notifications']; log: (line: string) => void },
  overrides: Partial<Omit<DeliveryOptions, 'pool' | 'email' | 'sms' | 'log' | 'devOutbox'>> = {},
): Delivery {
  const email = notifications.smtpUrl ? createSmtpTransport({ url: notifications.smtpUrl, from: notifications.smtpFrom }) : null;
  const sms = notifications.smsGatewayUrl ? createSmsGateway({ urlTemplate: notifications.smsGatewayUrl }) : null;
  const delivery = createDelivery({ ...overrides, pool, email, sms, log, devOutbox: notifications.devOutbox });
  return {
    ...delivery,
    async stop() {
      await delivery.stop();
      email?.close();
    },
  };
}
