import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createAnchor, fileAnchorSink, loadOrCreateAnchorKeys, type AnchorKeys } from '../../../platform/src/event-store/anchors';
import { computeEventHash } from '../../../platform/src/event-store/hash';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { addBa, addUser, sessionOf, type TestBa } from '../users/testing';
import type { AnchorRow } from './anchor-routes';

/**
 * What an auditor can check without the database (issue 6): every hash recomputed from the events API's own
 * fields, the signed anchors and their key over HTTP, the server-side verification, and
 * `audit:verify --from-api` run against a listening API.
 */
jest.setTimeout(180_000);

let h: ApiHarness;
let dir: string;
let keys: AnchorKeys;
let ba: TestBa;
let auditor: { Authorization: string };
let auditorToken: string;
let anchoredPosition: number;
const audit = { keyDir: '', anchorFile: '' };

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'anchor-routes-'));
  audit.keyDir = path.join(dir, 'audit-keys');
  audit.anchorFile = path.join(dir, 'audit-anchors.jsonl');
  // The projector's part: the key and the anchors. The api only reads them.
  keys = loadOrCreateAnchorKeys(audit.keyDir);
  h = await startApiHarness('anchor-routes', { audit });
  ba = await addBa(h, 'anchored', { verified: true });
  const session = await sessionOf(h, await addUser(h, { email: 'auditor@anchors.test', roles: ['Auditor'] }));
  auditor = session.auth;
  auditorToken = session.token;
  const anchored = await createAnchor(h.db.pool, { keys, sink: fileAnchorSink(audit.anchorFile) });
  if (!anchored.written) throw new Error(`no anchor written: ${anchored.reason}`);
  anchoredPosition = anchored.anchor.position;
});

afterAll(async () => {
  await h?.stop();
  rmSync(dir, { recursive: true, force: true });
});

type EventRow = {
  id: string;
  eventId: string;
  streamId: string;
  version: number;
  globalPosition: number;
  type: string;
  data: unknown;
  recordedMicros: string;
  dataText: string;
  metadataText: string;
  prevHash: string;
  hash: string;
};

describe('events API: the hashed fields', () => {
  it('gives every field the hash covers, so each hash recomputes from the response alone', async () => {
    const res = await request(h.app).get(`/api/business-associates/${ba.baId}/events`).set(auditor);
    expect(res.status).toBe(200);
    const events = res.body as EventRow[];
    expect(events.length).toBeGreaterThan(3);
    for (const e of events) {
      expect(e).toMatchObject({ recordedMicros: expect.stringMatching(/^\d{16}$/), dataText: expect.any(String), metadataText: expect.any(String) });
      expect(computeEventHash(e.prevHash, e)).toBe(e.hash);
      expect(JSON.parse(e.dataText)).toEqual(e.data);
    }
  });
});

describe('anchor routes', () => {
  it('lists the signed anchors (latest first) with their exact text, and the public key they verify with', async () => {
    const list = await request(h.app).get('/api/audit/anchors').set(auditor);
    expect(list.status).toBe(200);
    expect(list.headers['content-range']).toBe('anchors 0-0/1');
    const [row] = list.body as AnchorRow[];
    expect(row).toMatchObject({ id: 1, position: anchoredPosition, keyId: keys.keyId, signatureValid: true });
    expect(JSON.parse(row?.text ?? '')).toMatchObject({ position: anchoredPosition, sig: row?.signature });

    const key = await request(h.app).get('/api/audit/public-key').set(auditor);
    expect(key.body).toEqual({
      algorithm: 'Ed25519',
      keyId: keys.keyId,
      publicKeyPem: keys.publicKey.export({ type: 'spki', format: 'pem' }),
    });
  });

  it('verifies the whole trail on request, for auditors and MLL-ADMIN only', async () => {
    const res = await request(h.app).post('/api/audit/verify').set(auditor).send({});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, anchorsChecked: 1, anchorFile: { found: true } });
    expect(res.body.checked).toBeGreaterThan(3);

    const admin = await sessionOf(h, await addUser(h, { email: 'admin@anchors.test', roles: ['MLL-ADMIN'] }));
    expect((await request(h.app).post('/api/audit/verify').set(admin.auth).send({})).status).toBe(200);
    const procurement = await sessionOf(h, await addUser(h, { email: 'procurement@anchors.test', roles: ['MLL Procurement'] }));
    for (const [method, url] of [['get', '/api/audit/anchors'], ['get', '/api/audit/public-key'], ['post', '/api/audit/verify']] as const) {
      expect((await request(h.app)[method](url).set(procurement.auth)).status).toBe(403);
      expect((await request(h.app)[method](url).set((await sessionOf(h, ba.admin)).auth)).status).toBe(403);
    }
  });

  it('`audit:verify --from-api` recomputes a BA from the API and checks the anchors with the public key', async () => {
    const server = h.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const run = () =>
      new Promise<{ code: number | null; output: string }>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', 'scripts/audit-verify.ts', '--from-api', url, '--ba', ba.baId, '--public-key', path.join(audit.keyDir, 'public.pem')],
          {
            cwd: path.resolve(__dirname, '../../..'),
            env: { ...process.env, AUDIT_TOKEN: auditorToken },
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        let output = '';
        child.stdout.on('data', (c: Buffer) => (output += c.toString()));
        child.stderr.on('data', (c: Buffer) => (output += c.toString()));
        child.once('error', reject);
        child.once('close', (code) => resolve({ code, output }));
      });
    try {
      const intact = await run();
      expect(intact.output).toMatch(/intact: \d+ events of BA .* recomputed; 1 of 1 anchors verified/);
      expect(intact.code).toBe(0);

      // An event of the BA edited in place by the database owner: the API now shows data that does not hash.
      const events = (await request(h.app).get(`/api/business-associates/${ba.baId}/events`).set(auditor)).body as EventRow[];
      const target = events[1]!;
      const client = await h.db.pool.connect();
      try {
        await client.query('begin');
        await client.query('set local session_replication_role = replica');
        await client.query(`update events set data = jsonb_set(data, '{forged}', 'true') where global_position = $1`, [target.globalPosition]);
        await client.query('commit');
      } finally {
        client.release();
      }
      const tampered = await run();
      expect(tampered.code).toBe(1);
      expect(tampered.output).toContain(`event at global position ${target.globalPosition}`);
      expect(tampered.output).toMatch(/hash to [0-9a-f]{64}, not to the/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
