import { ConfigError, DEV_ERP_API_KEY, erpApiKey, loadConfig } from '.';

describe('ERP settings', () => {
  test('defaults: the sandbox `npm start` runs on 3100, the development key, 10 s per call, no faults', () => {
    expect(loadConfig({}).erp).toEqual({
      url: 'http://127.0.0.1:3100',
      external: false,
      apiKey: DEV_ERP_API_KEY,
      timeoutMs: 10_000,
      sandbox: {
        host: '127.0.0.1',
        port: 3100,
        processingMs: 1500,
        faults: { latencyMs: 0, errorRate: 0, timeoutRate: 0, downForMs: 0 },
      },
    });
  });

  test('ERP_SANDBOX_PORT moves the default URL; ERP_URL points elsewhere (and no sandbox is started)', () => {
    expect(loadConfig({ ERP_SANDBOX_PORT: '3999' }).erp).toMatchObject({ url: 'http://127.0.0.1:3999', external: false });
    expect(loadConfig({ ERP_URL: 'https://erp.example.com/gateway' }).erp).toMatchObject({
      url: 'https://erp.example.com/gateway',
      external: true,
    });
    // docker-compose passes an unset optional as an empty string.
    expect(loadConfig({ ERP_URL: '' }).erp.external).toBe(false);
  });

  test('durations and shares are parsed; faults come from ERP_SANDBOX_*', () => {
    const erp = loadConfig({
      ERP_TIMEOUT: '2s',
      ERP_SANDBOX_PROCESSING_MS: '100',
      ERP_SANDBOX_LATENCY_MS: '250ms',
      ERP_SANDBOX_ERROR_RATE: '0.2',
      ERP_SANDBOX_TIMEOUT_RATE: '1',
      ERP_SANDBOX_DOWN_MS: '1m',
    }).erp;
    expect(erp.timeoutMs).toBe(2000);
    expect(erp.sandbox.processingMs).toBe(100);
    expect(erp.sandbox.faults).toEqual({ latencyMs: 250, errorRate: 0.2, timeoutRate: 1, downForMs: 60_000 });
  });

  test.each([
    ['ERP_URL', 'ftp://erp.example.com'],
    ['ERP_URL', 'erp.example.com'],
    ['ERP_API_KEY', 'short'],
    ['ERP_TIMEOUT', 'soon'],
    ['ERP_SANDBOX_PORT', '70000'],
    ['ERP_SANDBOX_ERROR_RATE', '1.5'],
    ['ERP_SANDBOX_TIMEOUT_RATE', '-0.1'],
    ['ERP_SANDBOX_ERROR_RATE', 'half'],
    ['ERP_SANDBOX_DOWN_MS', '-1'],
  ])('%s=%s is refused at start-up, naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}: `));
  });

  test('the key is never repeated in an error, the URL only as scheme, host and port', () => {
    const keyError = (() => {
      try {
        loadConfig({ ERP_API_KEY: 'secret-key' });
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    })();
    expect(keyError).toMatch(/ERP_API_KEY: .*a value of 10 characters/);
    expect(keyError).not.toContain('secret-key');
    const urlError = (() => {
      try {
        loadConfig({ ERP_URL: 'ftp://user:pw@erp.example.com/x?key=abc' });
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    })();
    expect(urlError).toContain('ERP_URL');
    expect(urlError).not.toMatch(/pw|abc/);
  });

  test('production: no development key; the worker and the sandbox refuse to start without ERP_API_KEY', () => {
    const production = loadConfig({ NODE_ENV: 'production' });
    expect(production.erp.apiKey).toBeNull();
    expect(() => erpApiKey(production)).toThrow(/ERP_API_KEY: required when NODE_ENV=production/);
    const key = 'a-production-erp-key-0123456789';
    expect(erpApiKey(loadConfig({ NODE_ENV: 'production', ERP_API_KEY: key }))).toBe(key);
    expect(erpApiKey(loadConfig({}))).toBe(DEV_ERP_API_KEY);
  });
});
