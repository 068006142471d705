import { ConfigError, loadConfig } from '../config';

/** The notification and identity settings of platform/src/config (SMTP_URL, SMS_GATEWAY_URL, DEV_OUTBOX, TTLs). */
const problems = (env: NodeJS.ProcessEnv): string[] => {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  throw new Error('expected a configuration error');
};

describe('notification and identity configuration', () => {
  it('defaults: no transports, no dev outbox, the issue’s lifetimes', () => {
    const config = loadConfig({});
    expect(config.notifications).toEqual({
      smtpUrl: null,
      smtpFrom: 'BA Portal <no-reply@ba-portal.local>',
      smsGatewayUrl: null,
      devOutbox: false,
    });
    expect(config.identity).toEqual({
      otpTtlMs: 10 * 60_000,
      registrationTtlMs: 30 * 60_000,
      passwordMaxAgeMs: 90 * 86_400_000,
      contactChangeTtlMs: 24 * 3_600_000,
      captchaHmacKey: null,
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      SMTP_URL: 'smtps://mailer:s3cret@smtp.example.com:465',
      SMTP_FROM: 'Vendor Desk <vendors@example.com>',
      SMS_GATEWAY_URL: 'https://sms.example.com/send?key=K&to={to}&text={text}',
      DEV_OUTBOX: 'true',
      OTP_TTL: '5m',
      REGISTRATION_TTL: '1h',
      PASSWORD_MAX_AGE: '30d',
      CONTACT_CHANGE_TTL: '48h',
      CAPTCHA_HMAC_KEY: 'c'.repeat(32),
    });
    expect(config.notifications).toEqual({
      smtpUrl: 'smtps://mailer:s3cret@smtp.example.com:465',
      smtpFrom: 'Vendor Desk <vendors@example.com>',
      smsGatewayUrl: 'https://sms.example.com/send?key=K&to={to}&text={text}',
      devOutbox: true,
    });
    expect(config.identity).toEqual({
      otpTtlMs: 5 * 60_000,
      registrationTtlMs: 3_600_000,
      passwordMaxAgeMs: 30 * 86_400_000,
      contactChangeTtlMs: 48 * 3_600_000,
      captchaHmacKey: 'c'.repeat(32),
    });
  });

  it('takes an empty value (docker-compose ${VAR:-}) as not set', () => {
    const config = loadConfig({ SMTP_URL: '', SMS_GATEWAY_URL: '', CAPTCHA_HMAC_KEY: '' });
    expect(config.notifications.smtpUrl).toBeNull();
    expect(config.notifications.smsGatewayUrl).toBeNull();
    expect(config.identity.captchaHmacKey).toBeNull();
  });

  it('refuses a mail URL that is not smtp(s), naming the variable', () => {
    expect(problems({ SMTP_URL: 'http://smtp.example.com' })).toEqual([
      expect.stringMatching(/^SMTP_URL: an smtp:\/\/ or smtps:\/\/ URL/),
    ]);
    expect(problems({ SMTP_URL: 'smtp.example.com:25' })[0]).toMatch(/^SMTP_URL:/);
  });

  it('never repeats a password or an API key from a refused value', () => {
    const [smtp] = problems({ SMTP_URL: 'ftp://mailer:s3cret@smtp.example.com' });
    expect(smtp).not.toContain('s3cret');
    expect(smtp).toContain('ftp://***@smtp.example.com');
    expect(smtp).not.toContain('mailer');
    const [sms] = problems({ SMS_GATEWAY_URL: 'https://sms.example.com/send?key=TOPSECRET&to={to}' });
    expect(sms).not.toContain('TOPSECRET');
    const [key] = problems({ CAPTCHA_HMAC_KEY: 'short-secret' });
    expect(key).toBe('CAPTCHA_HMAC_KEY: at least 32 characters of secret (got a value of 12 characters)');
  });

  it('refuses an SMS gateway URL without both placeholders or not over http(s)', () => {
    expect(problems({ SMS_GATEWAY_URL: 'https://sms.example.com/send?to={to}' })[0]).toMatch(/^SMS_GATEWAY_URL: must contain both \{to\} and \{text\}/);
    expect(problems({ SMS_GATEWAY_URL: 'ftp://sms.example.com/{to}/{text}' })[0]).toMatch(/^SMS_GATEWAY_URL: an http\(s\) URL/);
  });

  it('refuses a sender that is not an e-mail address', () => {
    expect(problems({ SMTP_FROM: 'BA Portal' })[0]).toMatch(/^SMTP_FROM: an e-mail address/);
    expect(loadConfig({ SMTP_FROM: 'desk@example.com' }).notifications.smtpFrom).toBe('desk@example.com');
  });

  it('refuses DEV_OUTBOX other than true/false, and true in production', () => {
    expect(problems({ DEV_OUTBOX: 'yes' })[0]).toMatch(/^DEV_OUTBOX:/);
    expect(problems({ DEV_OUTBOX: 'true', NODE_ENV: 'production' })).toEqual([
      'DEV_OUTBOX: must not be true when NODE_ENV=production (it shows every code without sign-in)',
    ]);
    expect(loadConfig({ NODE_ENV: 'production' }).notifications.devOutbox).toBe(false);
  });

  it('refuses a lifetime that is not a duration', () => {
    expect(problems({ OTP_TTL: 'ten minutes' })[0]).toMatch(/^OTP_TTL: a duration such as/);
    expect(problems({ PASSWORD_MAX_AGE: '-1d' })[0]).toMatch(/^PASSWORD_MAX_AGE:/);
  });
});
