import nodemailer from 'nodemailer';
import type { EmailTransport } from './delivery';

export const DEFAULT_SMTP_FROM = 'BA Portal <no-reply@ba-portal.local>';

export type SmtpOptions = {
  /**
   * smtp://user:pass@host:587 (STARTTLS when offered) or smtps://user:pass@host:465 (TLS from the start).
   * nodemailer reads further options from the query, e.g. `?ignoreTLS=true` or `?tls.rejectUnauthorized=false`.
   */
  url: string;
  from?: string;
};

/**
 * E-mail through an SMTP server (nodemailer). Timeouts are short, so a dead server fails an attempt (retried
 * by the delivery loop) instead of holding it for nodemailer's default of minutes; the URL may override them.
 */
export function createSmtpTransport({ url, from = DEFAULT_SMTP_FROM }: SmtpOptions): EmailTransport & { close(): void } {
  const transporter = nodemailer.createTransport(
    { url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
    { from },
  );
  return {
    async send({ to, subject, text }) {
      await transporter.sendMail({ to, subject, text });
    },
    close: () => transporter.close(),
  };
}
