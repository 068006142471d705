import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Connection, type TLSConfig } from '@temporalio/client';
import { ConfigError, temporalAddress, type Config } from '../config';

/**
 * How every process reaches Temporal (design.md §12). Workflows trust the actor an update carries only
 * because nothing but our api and worker can reach the frontend, so a production cluster requires client
 * certificates: TEMPORAL_TLS_DIR holds the CA that signed the server's certificate and this process's own
 * certificate and key. Without it the connection is plaintext, which is what the local dev server speaks
 * (it listens on 127.0.0.1 only).
 */
export const TEMPORAL_TLS_FILES = { ca: 'ca.pem', cert: 'client.pem', key: 'client.key' } as const;

type TemporalTlsSettings = Pick<Config['temporal'], 'tlsDir' | 'tlsServerName'>;

/** What a file must look like; checked so a swapped or empty file is named at start-up, not as a TLS alert. */
const PEM_MARKERS: Record<keyof typeof TEMPORAL_TLS_FILES, RegExp> = {
  ca: /-----BEGIN CERTIFICATE-----/,
  cert: /-----BEGIN CERTIFICATE-----/,
  key: /-----BEGIN ([A-Z]+ )?PRIVATE KEY-----/,
};

/**
 * The SDK's TLS options from the folder, or null for plaintext. Problems name TEMPORAL_TLS_DIR and the file,
 * never the file's content (the key must not reach a log).
 */
export function temporalTlsOptions(settings: TemporalTlsSettings): TLSConfig | null {
  if (!settings.tlsDir) return null;
  const dir = settings.tlsDir;
  const problems: string[] = [];
  const read = (which: keyof typeof TEMPORAL_TLS_FILES): Buffer => {
    const file = path.join(dir, TEMPORAL_TLS_FILES[which]);
    try {
      const content = readFileSync(file);
      if (!PEM_MARKERS[which].test(content.toString('latin1'))) {
        const expected = which === 'key' ? 'a PEM private key' : 'a PEM certificate';
        problems.push(`TEMPORAL_TLS_DIR: ${file} is not ${expected}`);
      }
      return content;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      problems.push(
        code === 'ENOENT'
          ? `TEMPORAL_TLS_DIR: ${file} is missing (the folder needs ${Object.values(TEMPORAL_TLS_FILES).join(', ')})`
          : `TEMPORAL_TLS_DIR: ${file} cannot be read (${code ?? 'error'})`,
      );
      return Buffer.alloc(0);
    }
  };
  const ca = read('ca');
  const crt = read('cert');
  const key = read('key');
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    serverRootCACertificate: ca,
    clientCertPair: { crt, key },
    ...(settings.tlsServerName ? { serverNameOverride: settings.tlsServerName } : {}),
  };
}

/** Address and TLS for Connection.connect and NativeConnection.connect (the worker's) alike. */
export function temporalConnectionOptions(config: Config): { address: string; tls?: TLSConfig } {
  const tls = temporalTlsOptions(config.temporal);
  return { address: temporalAddress(config), ...(tls ? { tls } : {}) };
}

/** A client connection (api, supervisor, seed) as configured. */
export const connectTemporal = (config: Config): Promise<Connection> => Connection.connect(temporalConnectionOptions(config));
