import { ConfigError, crmApiKey, DEV_CRM_API_KEY, loadConfig } from '.';

describe('CRM settings', () => {
  test('defaults: the sandbox `npm start` runs on 3101 (beside the ERP sandbox on 3100), the development key, 5 s per call, no faults', () => {
    expect(loadConfig({}).crm).toEqual({
      url: 'http://127.0.0.1:3101',
      external: false,
      apiKey: DEV_CRM_API_KEY,
      timeoutMs: 5_000,
      sandbox: { host: '127.0.0.1', port: 3101, faults: { latencyMs: 0, errorRate: 0, timeoutRate: 0, downForMs: 0 } },
    });
    // Two sandboxes, two ports: the defaults never collide.
    expect(loadConfig({}).crm.sandbox.port).not.toBe(loadConfig({}).erp.sandbox.port);
  });

  test('CRM_SANDBOX_PORT moves the default URL; CRM_URL points elsewhere (and no sandbox is started)', () => {
    expect(loadConfig({ CRM_SANDBOX_PORT: '3999' }).crm).toMatchObject({ url: 'http://127.0.0.1:3999', external: false });
    expect(loadConfig({ CRM_URL: 'https://crm.example.com/gateway' }).crm).toMatchObject({
      url: 'https://crm.example.com/gateway',
      external: true,
    });
    // docker-compose passes an unset optional as an empty string.
    expect(loadConfig({ CRM_URL: '' }).crm.external).toBe(false);
  });

  test('durations and shares are parsed; faults come from CRM_SANDBOX_*', () => {
    const crm = loadConfig({
      CRM_TIMEOUT: '2s',
      CRM_SANDBOX_HOST: '0.0.0.0',
      CRM_SANDBOX_LATENCY_MS: '250ms',
      CRM_SANDBOX_ERROR_RATE: '0.2',
      CRM_SANDBOX_TIMEOUT_RATE: '1',
      CRM_SANDBOX_DOWN_MS: '1m',
    }).crm;
    expect(crm.timeoutMs).toBe(2000);
    expect(crm.sandbox.host).toBe('0.0.0.0');
    expect(crm.sandbox.faults).toEqual({ latencyMs: 250, errorRate: 0.2, timeoutRate: 1, downForMs: 60_000 });
  });

  test.each([
    ['CRM_URL', 'ftp://crm.example.com'],
    ['CRM_URL', 'crm.example.com'],
    ['CRM_API_KEY', 'short'],
    ['CRM_TIMEOUT', 'soon'],
    ['CRM_SANDBOX_PORT', '70000'],
    ['CRM_SANDBOX_ERROR_RATE', '1.5'],
    ['CRM_SANDBOX_TIMEOUT_RATE', '-0.1'],
    ['CRM_SANDBOX_DOWN_MS', '-1'],
  ])('%s=%s is refused at start-up, naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}: `));
  });

  test('the key is never repeated in an error, the URL only as scheme, host and port', () => {
    const messageOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    };
    const keyError = messageOf({ CRM_API_KEY: 'secret-key' });
    expect(keyError).toMatch(/CRM_API_KEY: .*a value of 10 characters/);
    expect(keyError).not.toContain('secret-key');
    const urlError = messageOf({ CRM_URL: 'ftp://user:pw@crm.example.com/x?key=abc' });
    expect(urlError).toContain('CRM_URL');
    expect(urlError).not.toMatch(/pw|abc/);
  });

  test('production: no development key; the sandbox refuses to start without CRM_API_KEY', () => {
    const production = loadConfig({ NODE_ENV: 'production' });
    expect(production.crm.apiKey).toBeNull();
    expect(() => crmApiKey(production)).toThrow(/CRM_API_KEY: required when NODE_ENV=production/);
    const key = 'a-production-crm-key-0123456789';
    expect(crmApiKey(loadConfig({ NODE_ENV: 'production', CRM_API_KEY: key }))).toBe(key);
    expect(crmApiKey(loadConfig({}))).toBe(DEV_CRM_API_KEY);
  });
});
