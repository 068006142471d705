import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomUUID,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import { createReadStream, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type pg from 'pg';
import { GENESIS_HASH } from './schema';

/**
 * Chain anchors: tamper evidence that does not rest on the database alone (design.md §2, issue 6).
 *
 * The hash chain proves that the stored events agree with each other; whoever can write to the database can
 * still edit an event, re-hash everything after it and move the head row, or cut the tail off. An anchor is
 * the head (global position and hash) at some moment, signed with an Ed25519 key the database never sees and
 * written outside the database, one JSON line per anchor:
 *
 *   {"v":1,"position":42,"hash":"…","at":"2026-…Z","prev":"…","key":"…","sig":"…"}
 *
 * `sig` signs the same object without `sig` (keys in this order, JSON.stringify). `prev` is the SHA-256 of the
 * previous line's exact text (GENESIS_HASH for the first), so a removed, inserted or reordered line breaks
 * the linkage; positions strictly increase. `key` names the signing key (SHA-256 of its SPKI DER, 16 hex).
 * A verifier needs only the public key (`public.pem` beside the private key) and the file.
 */
export const ANCHOR_VERSION = 1;
const PRIVATE_KEY_FILE = 'private.pem';
export const PUBLIC_KEY_FILE = 'public.pem';

export type Anchor = {
  v: number;
  position: number;
  hash: string;
  /** When the anchor was signed (ISO 8601). */
  at: string;
  /** SHA-256 (hex) of the previous line's text; GENESIS_HASH for the first line. */
  prev: string;
  /** Id of the signing key: the first 16 hex digits of the SHA-256 of its SPKI DER. */
  key: string;
  /** Ed25519 signature over `signedText(anchor)`, base64. */
  sig: string;
};

/** An anchor as it stands in the file: its 1-based line number and exact text (what `prev` hashes). */
export type AnchorLine = { line: number; text: string; anchor: Anchor };

export type AnchorKeys = { privateKey: KeyObject; publicKey: KeyObject; keyId: string };

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export const keyIdOf = (publicKey: KeyObject): string =>
  createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 16);

/** The text the signature covers: every field but `sig`, in a fixed order. */
export const signedText = (a: Omit<Anchor, 'sig'>): string =>
  JSON.stringify({ v: a.v, position: a.position, hash: a.hash, at: a.at, prev: a.prev, key: a.key });

export const lineHash = sha256;

// ---------------------------------------------------------------------------------------------------------
// Keys

/**
 * The anchor signing key in `keyDir`, created on first use like the JWT key (api/src/http/auth.ts): written
 * to a temporary file (0600) and linked into place, so two processes starting together agree on one key.
 * `public.pem` is (re)written beside it whenever it is missing: it is what verifiers are given.
 */
export function loadOrCreateAnchorKeys(keyDir: string): AnchorKeys {
  const file = path.join(keyDir, PRIVATE_KEY_FILE);
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(keyDir, { recursive: true, mode: 0o700 });
    const { privateKey } = generateKeyPairSync('ed25519');
    const tmp = path.join(keyDir, `.${PRIVATE_KEY_FILE}.${process.pid}.${randomUUID()}`);
    writeFileSync(tmp, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
    try {
      linkSync(tmp, file);
    } catch (linkErr) {
      if ((linkErr as NodeJS.ErrnoException).code !== 'EEXIST') throw linkErr;
    } finally {
      unlinkSync(tmp);
    }
    pem = readFileSync(file, 'utf8');
  }
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error(`${file} is not an Ed25519 private key`);
  const publicKey = createPublicKey(privateKey);
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }) as string;
  const publicFile = path.join(keyDir, PUBLIC_KEY_FILE);
  let current: string | null = null;
  try {
    current = readFileSync(publicFile, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (current !== publicPem) writeFileSync(publicFile, publicPem, { mode: 0o644 });
  return { privateKey, publicKey, keyId: keyIdOf(publicKey) };
}

/** A verifier's key: a PEM file (`<keyDir>/public.pem` by default), never the private key. */
export function loadAnchorPublicKey(file: string): KeyObject {
  const key = createPublicKey(readFileSync(file, 'utf8'));
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${file} is not an Ed25519 public key`);
  return key;
}

// ---------------------------------------------------------------------------------------------------------
// Lines

/** Parses and checks one line on its own: shape, key id and signature. Null reason = valid. */
export function checkAnchorLine(
  text: string,
  publicKey: KeyObject,
  keyId = keyIdOf(publicKey),
): { anchor: Anchor | null; problem: string | null } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { anchor: null, problem: 'is not JSON' };
  }
  const a = raw as Partial<Anchor> | null;
  const hex64 = (v: unknown) => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);
  if (
    typeof a !== 'object' ||
    a === null ||
    a.v !== ANCHOR_VERSION ||
    !Number.isSafeInteger(a.position) ||
    (a.position ?? 0) < 1 ||
    !hex64(a.hash) ||
    typeof a.at !== 'string' ||
    !hex64(a.prev) ||
    typeof a.key !== 'string' ||
    typeof a.sig !== 'string'
  ) {
    return { anchor: null, problem: 'is not an anchor (fields missing or malformed)' };
  }
  const anchor = a as Anchor;
  if (anchor.key !== keyId) {
    return { anchor, problem: `is signed by another key (${anchor.key}, expected ${keyId})` };
  }
  const valid = verify(null, Buffer.from(signedText(anchor), 'utf8'), publicKey, Buffer.from(anchor.sig, 'base64'));
  return { anchor, problem: valid ? null : 'has an invalid signature: it was forged or altered' };
}

/**
 * Complete lines of the anchor file, in order, up to `endByte` (the file's size when the caller looked).
 * A last line without its newline is a write in progress (or torn by a crash) and is not yet an anchor.
 */
export async function* anchorFileLines(file: string, endByte?: number): AsyncGenerator<{ line: number; text: string }> {
  const size = endByte ?? (await stat(file)).size;
  if (size === 0) return;
  const input = createReadStream(file, { encoding: 'utf8', start: 0, end: size - 1 });
  const lines = createInterface({ input, crlfDelay: Infinity });
  // readline also yields an unterminated last line: hold each line back until the next one proves it ended.
  let pending: string | null = null;
  let number = 0;
  for await (const text of lines) {
    if (pending !== null) yield { line: ++number, text: pending };
    pending = text;
  }
  if (pending !== null && (await lastByteIsNewline(file, size))) yield { line: ++number, text: pending };
}

async function lastByteIsNewline(file: string, size: number): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(1);
    await handle.read(buf, 0, 1, size - 1);
    return buf[0] === 0x0a;
  } finally {
    await handle.close();
  }
}

export type AnchorFileProblem = { line: number; position: number | null; reason: string };

/**
 * Checks a sequence of lines as a whole: each signature, the `prev` linkage and strictly increasing
 * positions. Stateful so a verifier can stream a large file; `check` returns the first problem.
 */
export function anchorChainChecker(publicKey: KeyObject) {
  const keyId = keyIdOf(publicKey);
  let prevHash = GENESIS_HASH;
  let lastPosition = 0;
  return {
    check({ line, text }: { line: number; text: string }): { anchor: Anchor } | { problem: AnchorFileProblem } {
      const { anchor, problem } = checkAnchorLine(text, publicKey, keyId);
      const position = anchor?.position ?? null;
      if (problem || !anchor) return { problem: { line, position, reason: `anchor line ${line} ${problem}` } };
      if (anchor.prev !== prevHash) {
        return {
          problem: {
            line,
            position,
            reason:
              `anchor line ${line} does not follow the line before it (its prev does not match): ` +
              `an anchor line was removed, inserted or reordered`,
          },
        };
      }
      if (anchor.position <= lastPosition) {
        return {
          problem: {
            line,
            position,
            reason: `anchor line ${line} goes back from position ${lastPosition} to ${anchor.position}`,
          },
        };
      }
      prevHash = lineHash(text);
      lastPosition = anchor.position;
      return { anchor };
    },
  };
}

/**
 * Every anchor of `file`, checked (signature, linkage, monotonic positions). Stops at the first bad line and
 * returns what came before it with the problem. For large files prefer streaming with `anchorFileLines`.
 */
export async function readAnchors(
  file: string,
  publicKey: KeyObject,
): Promise<{ anchors: AnchorLine[]; problem?: AnchorFileProblem }> {
  const checker = anchorChainChecker(publicKey);
  const anchors: AnchorLine[] = [];
  for await (const entry of anchorFileLines(file)) {
    const result = checker.check(entry);
    if ('problem' in result) return { anchors, problem: result.problem };
    anchors.push({ ...entry, anchor: result.anchor });
  }
  return { anchors };
}

// ---------------------------------------------------------------------------------------------------------
// Writing

/**
 * Where anchors go. The file sink is the one built; a copy to the blob store (S3) when one is configured is
 * a second sink behind the same interface, not built yet (the blob store comes with a later issue).
 */
export interface AnchorSink {
  readonly name: string;
  /** The last complete line, or null when there is none yet: what the next anchor's `prev` links to. */
  lastLine(): Promise<string | null>;
  /** Appends one line durably (returns after it is on disk). */
  append(line: string): Promise<void>;
}

/**
 * The append-only anchor file. Opened with 'a' for each line and fsynced; the directory is fsynced when the
 * file is created. A torn last line (a crash mid-write, never acknowledged) is cut off before the next
 * append, or it would run into the new line and break the file for every later verification.
 */
export function fileAnchorSink(file: string): AnchorSink {
  return {
    name: `file ${file}`,
    lastLine: async () => (await readTail(file, { repair: false })).last,
    append: async (line) => {
      if (line.includes('\n')) throw new Error('an anchor line must not contain a newline');
      const { created } = await readTail(file, { repair: true });
      const handle = await open(file, 'a', 0o644);
      try {
        await handle.write(`${line}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      if (created) await syncDirectory(path.dirname(file));
    },
  };
}

const TAIL_CHUNK = 4096;

/** The last complete line of the file, read backwards from its end (the file only grows). */
async function readTail(file: string, options: { repair: boolean }): Promise<{ last: string | null; created: boolean }> {
  let handle;
  try {
    handle = await open(file, options.repair ? 'r+' : 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    if (options.repair) mkdirSync(path.dirname(file), { recursive: true });
    return { last: null, created: true };
  }
  try {
    const { size } = await handle.stat();
    // buf holds the bytes [start, size) of the file, extended backwards a chunk at a time.
    let buf = Buffer.alloc(0);
    let start = size;
    const more = async (): Promise<boolean> => {
      if (start === 0) return false;
      const from = Math.max(0, start - TAIL_CHUNK);
      const chunk = Buffer.alloc(start - from);
      await handle.read(chunk, 0, chunk.length, from);
      buf = Buffer.concat([chunk, buf]);
      start = from;
      return true;
    };
    let lastNewline = -1; // index into the file
    while (lastNewline < 0) {
      if (!(await more())) break;
      const i = buf.lastIndexOf(0x0a);
      if (i >= 0) lastNewline = start + i;
    }
    const end = lastNewline + 1; // 0 when nothing complete was ever written
    if (options.repair && end < size) await handle.truncate(end);
    if (lastNewline < 0) return { last: null, created: false };
    let lineStart = -1;
    for (;;) {
      const i = lastNewline - start > 0 ? buf.lastIndexOf(0x0a, lastNewline - start - 1) : -1;
      if (i >= 0) {
        lineStart = start + i + 1;
        break;
      }
      if (!(await more())) {
        lineStart = 0;
        break;
      }
    }
    return { last: buf.subarray(lineStart - start, lastNewline - start).toString('utf8'), created: false };
  } finally {
    await handle.close();
  }
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a directory; the file itself is synced.
  } finally {
    await handle.close();
  }
}

/** A fixed advisory lock id: one anchor writer at a time per database, so two never link to the same line. */
const ANCHOR_LOCK = 0x616e6368; // 'anch'

export type AnchorResult =
  | { written: true; anchor: Anchor; line: string }
  | { written: false; reason: 'empty' | 'unchanged' | 'busy' | 'behind' | 'diverged'; detail?: string };

/**
 * Signs the event store's head as it stands and appends it to the sink, unless the head has not moved since
 * the last anchor (or the store is empty, or another process is anchoring at this moment). A head behind
 * the last anchor means history was cut off or the database replaced, a head at the anchored position with
 * another hash that it was rewritten: nothing is written (positions only grow) and the caller is told, for
 * audit:verify to report.
 */
export async function createAnchor(
  pool: pg.Pool,
  options: { keys: AnchorKeys; sink: AnchorSink; now?: () => Date },
): Promise<AnchorResult> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const locked = await client.query<{ ok: boolean }>('select pg_try_advisory_xact_lock($1) as ok', [ANCHOR_LOCK]);
    if (!locked.rows[0]?.ok) return { written: false, reason: 'busy' };
    const head = await client.query<{ position: string | number; last_hash: string }>(
      'select position, last_hash from event_store_head where id',
    );
    const row = head.rows[0];
    if (!row) throw new Error('event_store_head has no row: the event store schema is not applied');
    const position = Number(row.position);
    if (position === 0) return { written: false, reason: 'empty' };

    const lastText = await options.sink.lastLine();
    const last = lastText ? (JSON.parse(lastText) as Anchor) : null;
    if (last && position === last.position) {
      return last.hash === row.last_hash
        ? { written: false, reason: 'unchanged' }
        : { written: false, reason: 'diverged', detail: `the head's hash at ${position} is not the one anchored there` };
    }
    if (last && position < last.position) {
      return {
        written: false,
        reason: 'behind',
        detail: `the head (${position}) is behind the last anchor (${last.position}): events were removed`,
      };
    }
    const unsigned = {
      v: ANCHOR_VERSION,
      position,
      hash: row.last_hash,
      at: (options.now?.() ?? new Date()).toISOString(),
      prev: lastText === null ? GENESIS_HASH : lineHash(lastText),
      key: options.keys.keyId,
    };
    const sig = sign(null, Buffer.from(signedText(unsigned), 'utf8'), options.keys.privateKey).toString('base64');
    const anchor: Anchor = { ...unsigned, sig };
    const line = JSON.stringify(anchor);
    await options.sink.append(line);
    return { written: true, anchor, line };
  } finally {
    // Read-only transaction: ending it releases the advisory lock.
    await client.query('rollback').catch(() => undefined);
    client.release();
  }
}

/**
 * The anchoring task of the projector process: once at start, then every `intervalMs`. A failure (key folder
 * unreadable, disk full, database away) is logged and retried at the next tick; it never stops the process.
 */
export function startAnchoring(options: {
  pool: pg.Pool;
  keyDir: string;
  anchorFile: string;
  intervalMs: number;
  log: (line: string) => void;
}): { stop: () => Promise<void>; tick: () => Promise<void> } {
  const sink = fileAnchorSink(options.anchorFile);
  let keys: AnchorKeys | null = null;
  let running: Promise<void> | null = null;
  let lastComplaint = '';
  const complain = (message: string) => {
    // One line per distinct problem, not one every tick.
    if (message !== lastComplaint) options.log(message);
    lastComplaint = message;
  };
  const once = async () => {
    try {
      if (!keys) {
        keys = loadOrCreateAnchorKeys(options.keyDir);
        options.log(`anchoring the hash chain every ${options.intervalMs} ms to ${options.anchorFile} (key ${keys.keyId})`);
      }
      const result = await createAnchor(options.pool, { keys, sink });
      if (result.written || (result.reason !== 'behind' && result.reason !== 'diverged')) lastComplaint = '';
      else complain(`anchoring paused: ${result.detail ?? ''}; run npm run audit:verify`);
    } catch (err) {
      complain(`anchoring failed (retrying every ${options.intervalMs} ms): ${(err as Error).message}`);
    }
  };
  const tick = () => {
    // A slow tick (a stalled disk) is not overlapped by the next one.
    running ??= once().finally(() => {
      running = null;
    });
    return running;
  };
  void tick();
  const timer = setInterval(() => void tick(), options.intervalMs);
  timer.unref();
  return {
    tick,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
