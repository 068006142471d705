import { ConfigError, loadConfig } from '.';

/**
 * A refused value is named by its variable but never repeated where it may hold a secret: start-up errors
 * end up in logs, CI output and support tickets. One case per kind of secret the configuration carries.
 */
const problemFor = (env: NodeJS.ProcessEnv): string => {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  throw new Error(`expected a configuration error for ${Object.keys(env).join(', ')}`);
};

const SECRET = 'Xq7-s3cr3t-Pa55';

describe('database URLs: the password is never repeated, wherever it sits', () => {
  test.each(['DATABASE_URL', 'DATABASE_OWNER_URL'])('%s of the wrong scheme names the variable and its host only', (name) => {
    const message = problemFor({ [name]: `mysql://ba_portal:${SECRET}@db.internal:3306/ba_portal?sslmode=require` });
    expect(message).toContain(`${name}: a postgres:// connection URL`);
    expect(message).toContain('mysql://***@db.internal:3306/…');
    expect(message).not.toContain(SECRET);
    expect(message).not.toContain('sslmode');
  });

  test.each([
    ['a forgotten scheme', `ba_portal:${SECRET}@db.internal/ba_portal`],
    ["an unencoded '@' in the password", `mysql://ba_portal:${SECRET}@x@db.internal/ba_portal`],
    ["an unencoded '/' in the password", `mysql://ba_portal:${SECRET}/x@db.internal/ba_portal`],
    ["a password of digits then '?'", `mysql://ba_portal:4711?${SECRET}@db.internal/ba_portal`],
  ])('DATABASE_URL with %s: nothing of the password shows', (_case, value) => {
    const message = problemFor({ DATABASE_URL: value });
    expect(message).toMatch(/^Invalid configuration:\n {2}- DATABASE_URL: /);
    expect(message).not.toContain(SECRET);
    expect(message).not.toContain('4711');
  });
});

test('SMTP_URL: neither the user nor the password of a refused mail URL is repeated', () => {
  const message = problemFor({ SMTP_URL: `http://apikey:${SECRET}@smtp.example.com:587` });
  expect(message).toContain('SMTP_URL: an smtp:// or smtps:// URL');
  expect(message).toContain('"http://***@smtp.example.com:587"');
  expect(message).not.toContain(SECRET);
  expect(message).not.toContain('apikey');
});

test('SMS_GATEWAY_URL: an API key in the query or the path is not repeated', () => {
  const inQuery = problemFor({ SMS_GATEWAY_URL: `https://sms.example.com/send?key=${SECRET}&to={to}` });
  expect(inQuery).toContain('SMS_GATEWAY_URL: must contain both {to} and {text}');
  expect(inQuery).toContain('"https://sms.example.com/…"');
  expect(inQuery).not.toContain(SECRET);
  const inPath = problemFor({ SMS_GATEWAY_URL: `ftp://sms.example.com/${SECRET}/{to}/{text}` });
  expect(inPath).toMatch(/SMS_GATEWAY_URL: an http\(s\) URL/);
  expect(inPath).not.toContain(SECRET);
});

test('KURRENTDB_URL: the admin password is not repeated', () => {
  const message = problemFor({ KURRENTDB_URL: `esdbx://admin:${SECRET}@kurrentdb:2113?tls=true&tlsCAFile=/certs/ca.crt` });
  expect(message).toContain('KURRENTDB_URL: a kurrentdb:// connection string');
  expect(message).toContain('"esdbx://***@kurrentdb:2113/…"');
  expect(message).not.toContain(SECRET);
});

test('CAPTCHA_HMAC_KEY and DATABASE_APP_PASSWORD: only their length is told', () => {
  const key = problemFor({ CAPTCHA_HMAC_KEY: SECRET });
  expect(key).toContain(`CAPTCHA_HMAC_KEY: at least 32 characters of secret (got a value of ${SECRET.length} characters)`);
  expect(key).not.toContain(SECRET);
  const password = problemFor({ DATABASE_APP_PASSWORD: 'sh0rt-s3cr3t' });
  expect(password).toContain('DATABASE_APP_PASSWORD: at least 16 characters (got a value of 12 characters)');
  expect(password).not.toContain('sh0rt-s3cr3t');
});

test('several refused secrets at once: every variable named, no value repeated', () => {
  const message = problemFor({
    DATABASE_URL: `ba:${SECRET}@db`,
    SMTP_URL: `ftp://u:${SECRET}@mail.example.com`,
    CAPTCHA_HMAC_KEY: SECRET,
    PORT: 'not-a-port',
  });
  for (const name of ['DATABASE_URL', 'SMTP_URL', 'CAPTCHA_HMAC_KEY', 'PORT']) expect(message).toContain(`- ${name}: `);
  expect(message).not.toContain(SECRET);
  // A value that is no secret is still shown, so the operator sees what was read.
  expect(message).toContain('"not-a-port"');
});
