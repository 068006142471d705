import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { temporalAddress } from '../../../tests/support/temporal';
import { loadConfig } from '../config';
import { createDeploymentCertificates } from '../tls/certificates';
import { connectTemporal, temporalConnectionOptions } from './connect';

/**
 * mTLS to Temporal end to end. The dev server speaks plaintext only, so the frontend's TLS listener is stood
 * in for by a TLS terminator configured as docker-compose configures Temporal (TEMPORAL_TLS_FRONTEND_CERT,
 * TEMPORAL_TLS_CLIENT1_CA_CERT, TEMPORAL_TLS_REQUIRE_CLIENT_AUTH=true): the server certificate for the name
 * `temporal`, client certificates required and checked against the Temporal CA. Behind it the real dev server
 * answers, so a passing call went through a real TLS handshake and a real gRPC exchange.
 */
let certs: string;
let frontend: tls.Server;
let frontendPort: number;
/** Common names of the client certificates the terminator accepted, in order. */
const acceptedClients: string[] = [];

beforeAll(async () => {
  certs = mkdtempSync(path.join(os.tmpdir(), 'ba-portal-mtls-'));
  createDeploymentCertificates(certs);
  const [host, port] = temporalAddress().split(':');
  frontend = tls.createServer(
    {
      cert: readFileSync(path.join(certs, 'temporal-server', 'server.pem')),
      key: readFileSync(path.join(certs, 'temporal-server', 'server.key')),
      ca: readFileSync(path.join(certs, 'temporal-server', 'ca.pem')),
      requestCert: true,
      rejectUnauthorized: true,
      ALPNProtocols: ['h2'],
    },
    (socket) => {
      const peer = socket.getPeerCertificate();
      acceptedClients.push(typeof peer.subject?.CN === 'string' ? peer.subject.CN : '?');
      const upstream = net.connect(Number(port), host);
      socket.pipe(upstream).pipe(socket);
      const close = () => {
        socket.destroy();
        upstream.destroy();
      };
      socket.on('error', close);
      upstream.on('error', close);
    },
  );
  frontend.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => frontend.listen(0, '127.0.0.1', resolve));
  frontendPort = (frontend.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => frontend.close(() => resolve()));
  rmSync(certs, { recursive: true, force: true });
});

const configWith = (tlsDir: string | null) =>
  loadConfig({
    TEMPORAL_ADDRESS: `127.0.0.1:${frontendPort}`,
    ...(tlsDir ? { TEMPORAL_TLS_DIR: tlsDir, TEMPORAL_TLS_SERVER_NAME: 'temporal' } : {}),
  });

test('the api and supervisor client connects with its certificate and reaches the server', async () => {
  const before = acceptedClients.length;
  const connection = await connectTemporal(configWith(path.join(certs, 'temporal-client')));
  try {
    const info = await connection.workflowService.getSystemInfo({});
    expect(info.serverVersion).toBeTruthy();
    expect(acceptedClients.slice(before)).toContain('ba-portal-app');
  } finally {
    await connection.close();
  }
});

test("the worker's native connection takes the same options and reaches the server", async () => {
  const before = acceptedClients.length;
  const connection = await NativeConnection.connect(temporalConnectionOptions(configWith(path.join(certs, 'temporal-client'))));
  try {
    const info = await connection.workflowService.getSystemInfo({});
    expect(info.serverVersion).toBeTruthy();
    expect(acceptedClients.slice(before)).toContain('ba-portal-app');
  } finally {
    await connection.close();
  }
});

test('without a client certificate, or with one from another CA, the frontend refuses the connection', async () => {
  const before = acceptedClients.length;
  // Plaintext (no TEMPORAL_TLS_DIR) against a TLS frontend.
  await expect(Connection.connect({ ...temporalConnectionOptions(configWith(null)), connectTimeout: 3000 })).rejects.toThrow();
  // TLS that trusts the server but presents no certificate of its own.
  const ca = readFileSync(path.join(certs, 'temporal-client', 'ca.pem'));
  await expect(
    Connection.connect({
      address: `127.0.0.1:${frontendPort}`,
      tls: { serverRootCACertificate: ca, serverNameOverride: 'temporal' },
      connectTimeout: 3000,
    }),
  ).rejects.toThrow();
  // A certificate signed by the KurrentDB CA: valid, but not for Temporal.
  await expect(
    Connection.connect({
      address: `127.0.0.1:${frontendPort}`,
      tls: {
        serverRootCACertificate: ca,
        serverNameOverride: 'temporal',
        clientCertPair: {
          crt: readFileSync(path.join(certs, 'kurrentdb-node', 'node.crt')),
          key: readFileSync(path.join(certs, 'kurrentdb-node', 'node.key')),
        },
      },
      connectTimeout: 3000,
    }),
  ).rejects.toThrow();
  expect(acceptedClients.length).toBe(before);
});

test('the client refuses a server whose certificate is not from the configured CA', async () => {
  // The client trusts only the KurrentDB CA here: the Temporal server certificate must not pass.
  await expect(
    Connection.connect({
      address: `127.0.0.1:${frontendPort}`,
      tls: {
        serverRootCACertificate: readFileSync(path.join(certs, 'kurrentdb-client', 'ca.crt')),
        serverNameOverride: 'temporal',
        clientCertPair: {
          crt: readFileSync(path.join(certs, 'temporal-client', 'client.pem')),
          key: readFileSync(path.join(certs, 'temporal-client', 'client.key')),
        },
      },
      connectTimeout: 3000,
    }),
  ).rejects.toThrow();
});
