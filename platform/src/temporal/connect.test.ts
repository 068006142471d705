import { copyFileSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { createDeploymentCertificates } from '../tls/certificates';
import { temporalConnectionOptions, temporalTlsOptions } from './connect';

let certs: string;
let dir: string;

beforeAll(() => {
  certs = mkdtempSync(path.join(os.tmpdir(), 'ba-portal-tls-'));
  createDeploymentCertificates(certs);
});
afterAll(() => rmSync(certs, { recursive: true, force: true }));

/** A fresh copy of the app's client folder, which a test may then break. */
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ba-portal-tls-dir-'));
  for (const file of ['ca.pem', 'client.pem', 'client.key']) copyFileSync(path.join(certs, 'temporal-client', file), path.join(dir, file));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const problemsOf = (run: () => unknown): string => {
  try {
    run();
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  throw new Error('expected a ConfigError');
};

test('without TEMPORAL_TLS_DIR the connection stays plaintext (the local dev server path)', () => {
  const config = loadConfig({ TEMPORAL_ADDRESS: 'temporal:7233' });
  expect(temporalTlsOptions(config.temporal)).toBeNull();
  expect(temporalConnectionOptions(config)).toEqual({ address: 'temporal:7233' });
});

test('with TEMPORAL_TLS_DIR: the CA, the client certificate pair and the server name come from the folder', () => {
  const config = loadConfig({ TEMPORAL_ADDRESS: '10.0.0.5:7233', TEMPORAL_TLS_DIR: dir, TEMPORAL_TLS_SERVER_NAME: 'temporal' });
  const options = temporalConnectionOptions(config);
  expect(options.address).toBe('10.0.0.5:7233');
  expect(options.tls?.serverNameOverride).toBe('temporal');
  expect(Buffer.from(options.tls?.serverRootCACertificate ?? []).equals(readFileSync(path.join(dir, 'ca.pem')))).toBe(true);
  expect(Buffer.from(options.tls?.clientCertPair?.crt ?? []).equals(readFileSync(path.join(dir, 'client.pem')))).toBe(true);
  expect(Buffer.from(options.tls?.clientCertPair?.key ?? []).equals(readFileSync(path.join(dir, 'client.key')))).toBe(true);
  // No server name configured: the SDK checks the certificate against the host it dials.
  expect(temporalTlsOptions({ tlsDir: dir, tlsServerName: null })).not.toHaveProperty('serverNameOverride');
});

test.each(['ca.pem', 'client.pem', 'client.key'])('a missing %s stops start-up naming TEMPORAL_TLS_DIR and the file', (file) => {
  unlinkSync(path.join(dir, file));
  const message = problemsOf(() => temporalTlsOptions({ tlsDir: dir, tlsServerName: null }));
  expect(message).toContain('TEMPORAL_TLS_DIR');
  expect(message).toContain(`${path.join(dir, file)} is missing`);
});

test('a wrong file is named without echoing its content (a key must never reach a log)', () => {
  const key = readFileSync(path.join(dir, 'client.key'), 'utf8');
  // The key where the certificate belongs, and a certificate where the key belongs.
  writeFileSync(path.join(dir, 'client.pem'), key.replace(/-----(BEGIN|END) PRIVATE KEY-----/g, '-----$1 SECRET-----'));
  writeFileSync(path.join(dir, 'client.key'), 'SECRET-KEY-MATERIAL-THAT-IS-NOT-PEM');
  const message = problemsOf(() => temporalTlsOptions({ tlsDir: dir, tlsServerName: null }));
  expect(message).toContain(`TEMPORAL_TLS_DIR: ${path.join(dir, 'client.pem')} is not a PEM certificate`);
  expect(message).toContain(`TEMPORAL_TLS_DIR: ${path.join(dir, 'client.key')} is not a PEM private key`);
  expect(message).not.toContain('SECRET-KEY-MATERIAL');
  const keyBody = key.split('\n')[1] ?? '';
  expect(keyBody.length).toBeGreaterThan(20);
  expect(message).not.toContain(keyBody);
});
