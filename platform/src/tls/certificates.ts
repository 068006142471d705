import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Private certificates for the docker-compose topology (design.md §12), made with the openssl command line so
 * an operator can read, repeat or replace every step (ARCHITECTURE.md, "Trust boundaries"). Two CAs, one
 * per trust domain: a certificate that opens KurrentDB never opens Temporal, and the reverse.
 *
 *   npx tsx platform/src/tls/certificates.ts [folder]     (default ./certs; existing files are kept)
 *
 * Layout (each service mounts one folder read-only; ca-keys/ is never mounted anywhere):
 *   ca-keys/temporal-ca.key, ca-keys/kurrentdb-ca.key
 *   temporal-server/  ca.pem server.pem server.key    the frontend's certificate (also its internal client's)
 *   temporal-client/  ca.pem client.pem client.key    api and worker: TEMPORAL_TLS_DIR
 *   temporal-ui/      ca.pem client.pem client.key    the Temporal UI (ops profile)
 *   kurrentdb-node/   ca/ca.crt node.crt node.key     KurrentDB's node certificate and trusted root
 *   kurrentdb-client/ ca.crt                          api, worker, projector: tlsCAFile in KURRENTDB_URL
 */
export type CertificateOptions = {
  /** Days the leaf certificates are valid (CAs: ten times as long). */
  days?: number;
  /** DNS name clients dial for Temporal's frontend (the compose service name). */
  temporalHost?: string;
  kurrentdbHost?: string;
};

/** The common name KurrentDB requires of a node certificate (KURRENTDB_CERTIFICATE_RESERVED_NODE_COMMON_NAME). */
export const KURRENTDB_NODE_CN = 'kurrentdb-node';

const openssl = (args: string[]): void => {
  execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
};

type Usage = 'server' | 'client';

/** A self-signed CA: key stays in ca-keys/, certificate is copied where it is trusted. */
export function createCa(keyFile: string, certFile: string, commonName: string, days: number): void {
  mkdirSync(path.dirname(keyFile), { recursive: true });
  mkdirSync(path.dirname(certFile), { recursive: true });
  openssl([
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', String(days),
    '-keyout', keyFile, '-out', certFile, '-subj', `/CN=${commonName}`,
    '-addext', 'basicConstraints=critical,CA:TRUE',
    '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  chmodSync(keyFile, 0o600);
}

/**
 * A leaf certificate signed by the CA. Servers get a DNS subject alternative name (clients verify it) and
 * both usages: Temporal's frontend and KurrentDB's node also present theirs as a client internally.
 */
export function issueCertificate(options: {
  caKey: string;
  caCert: string;
  keyFile: string;
  certFile: string;
  commonName: string;
  usage: Usage;
  dnsNames?: readonly string[];
  days: number;
}): void {
  const work = mkdtempSync(path.join(os.tmpdir(), 'ba-portal-cert-'));
  try {
    const csr = path.join(work, 'leaf.csr');
    const ext = path.join(work, 'leaf.ext');
    mkdirSync(path.dirname(options.keyFile), { recursive: true });
    mkdirSync(path.dirname(options.certFile), { recursive: true });
    openssl(['req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', options.keyFile, '-out', csr, '-subj', `/CN=${options.commonName}`]);
    const lines = [
      'basicConstraints=critical,CA:FALSE',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      `extendedKeyUsage=${options.usage === 'server' ? 'serverAuth,clientAuth' : 'clientAuth'}`,
    ];
    if (options.dnsNames?.length) lines.push(`subjectAltName=${options.dnsNames.map((n) => `DNS:${n}`).join(',')}`);
    writeFileSync(ext, `${lines.join('\n')}\n`);
    openssl([
      'x509', '-req', '-in', csr, '-CA', options.caCert, '-CAkey', options.caKey, '-set_serial', `0x${randomSerial()}`,
      '-days', String(options.days), '-sha256', '-extfile', ext, '-out', options.certFile,
    ]);
    chmodSync(options.keyFile, 0o600);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** A positive 128-bit serial: certificates from one CA must never share one. */
const randomSerial = (): string => {
  const bytes = randomBytes(16);
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x01;
  return bytes.toString('hex');
};

/** Every file of the layout above that is missing is created; existing ones are kept (re-running is safe). */
export function createDeploymentCertificates(dir: string, options: CertificateOptions = {}): string[] {
  const days = options.days ?? 825;
  const temporalHost = options.temporalHost ?? 'temporal';
  const kurrentdbHost = options.kurrentdbHost ?? 'kurrentdb';
  const made: string[] = [];
  const at = (...parts: string[]) => path.join(dir, ...parts);

  const temporalCaKey = at('ca-keys', 'temporal-ca.key');
  const temporalCa = at('temporal-server', 'ca.pem');
  if (!existsSync(temporalCaKey)) {
    createCa(temporalCaKey, temporalCa, 'ba-portal temporal CA', days * 10);
    made.push(temporalCa);
  }
  const leaf = (folder: string, name: string, commonName: string, usage: Usage, dnsNames?: string[]) => {
    const certFile = at(folder, `${name}.pem`);
    if (!existsSync(certFile)) {
      const keyFile = at(folder, `${name}.key`);
      issueCertificate({ caKey: temporalCaKey, caCert: temporalCa, keyFile, certFile, commonName, usage, dnsNames, days });
      made.push(certFile);
    }
    if (folder !== 'temporal-server') copyFileSync(temporalCa, at(folder, 'ca.pem'));
  };
  leaf('temporal-server', 'server', temporalHost, 'server', [temporalHost]);
  leaf('temporal-client', 'client', 'ba-portal-app', 'client');
  leaf('temporal-ui', 'client', 'ba-portal-temporal-ui', 'client');

  const kurrentCaKey = at('ca-keys', 'kurrentdb-ca.key');
  const kurrentCa = at('kurrentdb-node', 'ca', 'ca.crt');
  if (!existsSync(kurrentCaKey)) {
    createCa(kurrentCaKey, kurrentCa, 'ba-portal kurrentdb CA', days * 10);
    made.push(kurrentCa);
  }
  const nodeCert = at('kurrentdb-node', 'node.crt');
  if (!existsSync(nodeCert)) {
    issueCertificate({
      caKey: kurrentCaKey,
      caCert: kurrentCa,
      keyFile: at('kurrentdb-node', 'node.key'),
      certFile: nodeCert,
      commonName: KURRENTDB_NODE_CN,
      usage: 'server',
      dnsNames: [kurrentdbHost],
      days,
    });
    made.push(nodeCert);
  }
  mkdirSync(at('kurrentdb-client'), { recursive: true });
  copyFileSync(kurrentCa, at('kurrentdb-client', 'ca.crt'));
  return made;
}

if (require.main === module) {
  const dir = path.resolve(process.argv[2] ?? 'certs');
  const made = createDeploymentCertificates(dir);
  console.log(made.length ? `created:\n${made.map((f) => `  ${f}`).join('\n')}` : `nothing to do: ${dir} is complete`);
}
