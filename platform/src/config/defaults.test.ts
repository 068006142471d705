import os from 'node:os';
import { ConfigError, defaultApiProcesses, loadConfig } from '.';

const DATABASE_URL = 'postgres://ba_portal_app:app-password-1234@db.internal:5432/ba_portal';

describe('SEED_DEMO: demo accounts (with a published password) only where nothing real can live', () => {
  test('on by default for the embedded development database', () => {
    expect(loadConfig({}).seedDemo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).seedDemo).toBe(true);
  });

  test('off by default as soon as DATABASE_URL points at a server', () => {
    expect(loadConfig({ DATABASE_URL }).seedDemo).toBe(false);
    // docker-compose passes an unset optional as an empty string: still the default.
    expect(loadConfig({ DATABASE_URL, SEED_DEMO: '' }).seedDemo).toBe(false);
  });

  test('asked for explicitly, it may run against a server outside production; SEED_DEMO=false always wins', () => {
    expect(loadConfig({ DATABASE_URL, SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  test('off under NODE_ENV=production, even on the embedded database', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).seedDemo).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', DATABASE_URL }).seedDemo).toBe(false);
  });

  test('SEED_DEMO=true under NODE_ENV=production is refused at start-up, naming the variable', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL, SEED_DEMO: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', SEED_DEMO: 'true' })).toThrow(/SEED_DEMO: must not be true when NODE_ENV=production/);
  });

  test('a value other than true or false is refused', () => {
    expect(() => loadConfig({ SEED_DEMO: 'yes' })).toThrow(/SEED_DEMO: /);
  });
});

describe('https and proxies', () => {
  test('http.secure (Secure cookies, HSTS) follows the scheme of PUBLIC_URL', () => {
    expect(loadConfig({}).http.secure).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'http://portal.example.com' }).http.secure).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'https://portal.example.com' }).http.secure).toBe(true);
  });

  test('TRUST_PROXY: off unless set; hops, true or named subnets', () => {
    expect(loadConfig({}).http.trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).http.trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'true' }).http.trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).http.trustProxy).toBe('loopback');
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.10' }).http.trustProxy).toBe('10.0.0.0/8, 192.168.1.10');
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY: /);
  });
});

describe('API_PROCESSES: api processes behind one port', () => {
  test('one per core by default (at most 16), one under NODE_ENV=test', () => {
    const cores = Math.min(16, os.availableParallelism());
    expect(loadConfig({}).http.processes).toBe(cores);
    expect(loadConfig({ NODE_ENV: 'development' }).http.processes).toBe(cores);
    expect(loadConfig({ NODE_ENV: 'test' }).http.processes).toBe(1);
    expect(defaultApiProcesses('test')).toBe(1);
  });

  test('a whole number from 1 to 64 when set; an empty value is the default', () => {
    expect(loadConfig({ API_PROCESSES: '3' }).http.processes).toBe(3);
    expect(loadConfig({ NODE_ENV: 'test', API_PROCESSES: '2' }).http.processes).toBe(2);
    expect(loadConfig({ NODE_ENV: 'test', API_PROCESSES: '' }).http.processes).toBe(1);
    for (const bad of ['0', '-1', '1.5', 'many', '65'])
      expect(() => loadConfig({ API_PROCESSES: bad })).toThrow(/API_PROCESSES: a whole number from 1 to 64/);
  });
});
