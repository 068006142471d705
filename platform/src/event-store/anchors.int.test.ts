import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, appendFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NewEvent } from '../../../domain/src/shared/events';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import {
  PUBLIC_KEY_FILE,
  createAnchor,
  fileAnchorSink,
  loadAnchorPublicKey,
  loadOrCreateAnchorKeys,
  readAnchors,
  startAnchoring,
  type AnchorKeys,
} from './anchors';
import { verifyHashChain } from './hash';
import { createPostgresEventStore } from './postgres';
import { verifyAuditTrail } from './verify-trail';
import { testMetadata as metadata } from './testing';

/**
 * Tamper evidence against someone who can write to the database as its owner (issue 6): each attack below
 * defeats the hash chain alone (verifyHashChain still passes, asserted), and the signed anchors outside the
 * database name the first bad position.
 */
const ev = (type: string, data: unknown): NewEvent => ({ eventId: randomUUID(), type, data, metadata });

type Fixture = {
  db: TestDatabase;
  dir: string;
  keyDir: string;
  anchorFile: string;
  keys: AnchorKeys;
  events: { position: number; eventId: string; streamId: string }[];
  /** Appends one event (as the application role) and, unless told not to, anchors the new head. */
  append: (anchor?: boolean) => Promise<void>;
  verify: () => ReturnType<typeof verifyAuditTrail>;
  anchor: () => ReturnType<typeof createAnchor>;
};

const fixtures: Fixture[] = [];

async function fixture(count: number, anchorEvery = 1): Promise<Fixture> {
  const db = await createTestDatabase({ poolSize: 3, empty: true });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'anchors-'));
  const keyDir = path.join(dir, 'audit-keys');
  const anchorFile = path.join(dir, 'audit-anchors.jsonl');
  const keys = loadOrCreateAnchorKeys(keyDir);
  // The code under test runs as the least-privileged application role; the attacks run as the owner.
  const store = createPostgresEventStore(db.appPool);
  const events: Fixture['events'] = [];
  const anchor = () => createAnchor(db.appPool, { keys, sink: fileAnchorSink(anchorFile) });
  const append = async (withAnchor = true) => {
    const streamId = `ba-${events.length % 3}`;
    const e = ev('CompanyDetailsSaved', { name: `Co ${events.length + 1}` });
    const result = await store.appendToStream(streamId, [e], { expectedVersion: 'any' });
    events.push({ position: result.lastGlobalPosition, eventId: e.eventId, streamId });
    if (withAnchor) await anchor();
  };
  for (let i = 1; i <= count; i++) await append(i % anchorEvery === 0);
  const f: Fixture = {
    db,
    dir,
    keyDir,
    anchorFile,
    keys,
    events,
    append,
    anchor,
    verify: () => verifyAuditTrail(db.appPool, { anchorFile, keyDir }),
  };
  fixtures.push(f);
  return f;
}

afterEach(async () => {
  for (const f of fixtures.splice(0)) {
    await f.db.drop();
    rmSync(f.dir, { recursive: true, force: true });
  }
});

/** Runs statements as the database owner past the append-only trigger, the way an attacker with those rights would. */
async function asOwner(db: TestDatabase, ...statements: string[]): Promise<void> {
  const client = await db.pool.connect();
  try {
    await client.query('begin');
    await client.query('set local session_replication_role = replica');
    for (const sql of statements) await client.query(sql);
    await client.query('commit');
  } finally {
    client.release();
  }
}

/** Recomputes prev_hash and hash of every event from `from` on, with the store's own function, and moves the head. */
const rehashFrom = (from: number) => /* sql */ `
  do $$
  declare r record; prev text;
  begin
    select coalesce((select hash from events where global_position = ${from} - 1), repeat('0', 64)) into prev;
    for r in select * from events where global_position >= ${from} order by global_position loop
      update events
         set prev_hash = prev,
             hash = event_hash(prev, r.global_position, r.version, r.event_id,
                               (extract(epoch from r.recorded_at) * 1000000)::bigint,
                               r.stream_id, r.type, r.data::text, r.metadata::text)
       where global_position = r.global_position
       returning hash into prev;
    end loop;
    update event_store_head set last_hash = prev;
  end $$`;

describe('chain anchors', () => {
  it('keeps the signing key outside the database (0600) and gives verifiers public.pem', async () => {
    const f = await fixture(1);
    expect(statSync(path.join(f.keyDir, 'private.pem')).mode & 0o777).toBe(0o600);
    const publicKey = loadAnchorPublicKey(path.join(f.keyDir, PUBLIC_KEY_FILE));
    expect(publicKey.asymmetricKeyType).toBe('ed25519');
    // A second load (another process starting) takes the same key.
    expect(loadOrCreateAnchorKeys(f.keyDir).keyId).toBe(f.keys.keyId);
  });

  it('passes an intact history, checking every anchor, and skips an anchor when the head has not moved', async () => {
    const f = await fixture(8);
    await expect(f.anchor()).resolves.toEqual({ written: false, reason: 'unchanged' });
    const { anchors, problem } = await readAnchors(f.anchorFile, f.keys.publicKey);
    expect(problem).toBeUndefined();
    expect(anchors.map((a) => a.anchor.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    await expect(f.verify()).resolves.toEqual({
      ok: true,
      checked: 8,
      anchorsChecked: 8,
      headPosition: 8,
      lastAnchoredPosition: 8,
      anchorFile: { path: f.anchorFile, found: true },
    });
  });

  it('(a) names an event edited in place', async () => {
    const f = await fixture(8);
    const target = f.events[4]!;
    await asOwner(f.db, `update events set data = '{"name": "Forged"}' where global_position = ${target.position}`);
    const result = await f.verify();
    expect(result).toMatchObject({
      ok: false,
      broken: { globalPosition: target.position, eventId: target.eventId, streamId: target.streamId },
    });
    expect(result.broken?.reason).toMatch(/altered/);
  });

  it('(b) names an edited event even when the tail was re-hashed and the head moved', async () => {
    const f = await fixture(8);
    const target = f.events[3]!;
    await asOwner(
      f.db,
      `update events set data = '{"name": "Forged"}' where global_position = ${target.position}`,
      rehashFrom(target.position),
    );
    // The chain alone is fooled: that is the attack.
    await expect(verifyHashChain(f.db.appPool)).resolves.toEqual({ ok: true, checked: 8 });
    const result = await f.verify();
    expect(result).toMatchObject({
      ok: false,
      anchorsChecked: target.position - 1,
      broken: { globalPosition: target.position, eventId: target.eventId, streamId: target.streamId },
    });
    expect(result.broken?.reason).toMatch(
      new RegExp(`rewritten: the event at position ${target.position} no longer has the hash signed`),
    );
  });

  it('(b) with sparser anchors, bounds the rewrite by the last anchor that still matches', async () => {
    const f = await fixture(8, 3); // anchors at 3 and 6
    await asOwner(f.db, `update events set data = '{"name": "Forged"}' where global_position = 5`, rehashFrom(5));
    const result = await f.verify();
    expect(result).toMatchObject({ ok: false, anchorsChecked: 1, broken: { globalPosition: 4 } });
    expect(result.broken?.reason).toMatch(/one of positions 4\.\.6 \(the anchor at 3 still matches\)/);
  });

  it('(c) names the first of two events swapped in order and re-hashed', async () => {
    const f = await fixture(8);
    await asOwner(
      f.db,
      'update events set global_position = -1 where global_position = 3',
      'update events set global_position = 3 where global_position = 6',
      'update events set global_position = 6 where global_position = -1',
      rehashFrom(3),
    );
    await expect(verifyHashChain(f.db.appPool)).resolves.toEqual({ ok: true, checked: 8 });
    const result = await f.verify();
    expect(result).toMatchObject({
      ok: false,
      broken: { globalPosition: 3, eventId: f.events[5]!.eventId }, // the event now standing at 3
    });
  });

  it('(d) reports a truncated tail at the right position, and anchoring pauses rather than sign it', async () => {
    const f = await fixture(8);
    await asOwner(
      f.db,
      'delete from events where global_position > 5',
      'update event_store_head set position = 5, last_hash = (select hash from events where global_position = 5)',
    );
    await expect(verifyHashChain(f.db.appPool)).resolves.toEqual({ ok: true, checked: 5 });
    const result = await f.verify();
    expect(result).toMatchObject({ ok: false, anchorsChecked: 5, broken: { globalPosition: 6, eventId: null } });
    expect(result.broken?.reason).toMatch(/^truncated: events after position 5 are missing though anchored/);
    await expect(f.anchor()).resolves.toMatchObject({ written: false, reason: 'behind' });
  });

  it('detects a forged, a removed and a foreign-signed anchor line', async () => {
    const f = await fixture(6);
    const original = readFileSync(f.anchorFile, 'utf8');
    const lines = original.trimEnd().split('\n');

    // A line whose hash was changed (to cover a rewrite) no longer verifies.
    const forged = JSON.parse(lines[2]!) as { hash: string };
    forged.hash = 'f'.repeat(64);
    writeFileSync(f.anchorFile, [...lines.slice(0, 2), JSON.stringify(forged), ...lines.slice(3)].join('\n') + '\n');
    expect(await f.verify()).toMatchObject({ ok: false, anchorProblem: { line: 3, reason: expect.stringMatching(/invalid signature/) } });

    // A removed line breaks the linkage of the one after it.
    writeFileSync(f.anchorFile, [...lines.slice(0, 3), ...lines.slice(4)].join('\n') + '\n');
    expect(await f.verify()).toMatchObject({ ok: false, anchorProblem: { line: 4, reason: expect.stringMatching(/removed/) } });

    // A line signed with a key of the attacker's own.
    writeFileSync(f.anchorFile, original);
    const other = loadOrCreateAnchorKeys(path.join(f.dir, 'other-keys'));
    await f.append(false);
    await createAnchor(f.db.appPool, { keys: other, sink: fileAnchorSink(f.anchorFile) });
    expect(await f.verify()).toMatchObject({ ok: false, anchorProblem: { line: 7, reason: expect.stringMatching(/another key/) } });
  });

  it('fails when the anchor file is missing while the store has events', async () => {
    const f = await fixture(2);
    rmSync(f.anchorFile);
    expect(await f.verify()).toMatchObject({
      ok: false,
      anchorsChecked: 0,
      anchorFile: { found: false },
      anchorProblem: { line: null, reason: expect.stringMatching(/does not exist/) },
    });
  });

  it('cuts a torn last line (a crash mid-write) before the next anchor, so the file stays valid', async () => {
    const f = await fixture(2);
    appendFileSync(f.anchorFile, '{"v":1,"position":3,"ha');
    await f.append();
    const { anchors, problem } = await readAnchors(f.anchorFile, f.keys.publicKey);
    expect(problem).toBeUndefined();
    expect(anchors.map((a) => a.anchor.position)).toEqual([1, 2, 3]);
    await expect(f.verify()).resolves.toMatchObject({ ok: true, anchorsChecked: 3 });
  });

  it('the anchoring task anchors at start and survives failures', async () => {
    const f = await fixture(3, 100); // no anchors yet
    const logged: string[] = [];
    const task = startAnchoring({ pool: f.db.appPool, keyDir: f.keyDir, anchorFile: f.anchorFile, intervalMs: 60_000, log: (l) => logged.push(l) });
    await task.tick();
    await task.stop();
    expect((await readAnchors(f.anchorFile, f.keys.publicKey)).anchors.map((a) => a.anchor.position)).toEqual([3]);

    // An anchor file that cannot be written (here: a directory) is logged, not thrown.
    const broken = startAnchoring({ pool: f.db.appPool, keyDir: f.keyDir, anchorFile: f.dir, intervalMs: 60_000, log: (l) => logged.push(l) });
    await broken.tick();
    await broken.stop();
    expect(logged.some((l) => /^anchoring failed/.test(l))).toBe(true);
  });

  describe('npm run audit:verify', () => {
    const run = (f: Fixture, args: string[] = [], env: Record<string, string> = {}) =>
      new Promise<{ code: number | null; output: string }>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/audit-verify.ts', ...args], {
          cwd: path.resolve(__dirname, '../../..'),
          env: {
            ...process.env,
            DATABASE_URL: f.db.appUrl,
            AUDIT_ANCHOR_FILE: f.anchorFile,
            AUDIT_KEY_DIR: f.keyDir,
            ...env,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout.on('data', (c: Buffer) => (output += c.toString()));
        child.stderr.on('data', (c: Buffer) => (output += c.toString()));
        child.once('error', reject);
        child.once('close', (code) => resolve({ code, output }));
      });

    it('exits 0 with the anchors counted, 1 naming the first bad position of a re-hashed history or a missing anchor file', async () => {
      const f = await fixture(6);
      const intact = await run(f);
      expect(intact).toMatchObject({ code: 0, output: expect.stringMatching(/intact: 6 events checked .*; 6 anchors checked/) });

      const target = f.events[2]!;
      await asOwner(f.db, `update events set data = '{"name": "Forged"}' where global_position = ${target.position}`, rehashFrom(target.position));
      const rehashed = await run(f);
      expect(rehashed.code).toBe(1);
      expect(rehashed.output).toContain(`BROKEN at global position ${target.position} (event ${target.eventId} in stream ${target.streamId})`);
      expect(rehashed.output).toMatch(/2 anchors checked/);

      // Without the anchors the chain alone passes, and the output says what that does not show.
      const chainOnly = await run(f, ['--no-anchors']);
      expect(chainOnly).toMatchObject({ code: 0, output: expect.stringMatching(/--no-anchors.*re-hashed or truncated/) });

      rmSync(f.anchorFile);
      expect(existsSync(f.anchorFile)).toBe(false);
      const missing = await run(f);
      expect(missing.code).toBe(1);
      expect(missing.output).toMatch(/anchor file .* does not exist/);
    });
  });
});
