import type { KeyObject } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import {
  PUBLIC_KEY_FILE,
  anchorChainChecker,
  anchorFileLines,
  loadAnchorPublicKey,
  type Anchor,
  type AnchorFileProblem,
} from './anchors';
import { verifyHashChain } from './hash';

/**
 * The whole audit trail: the hash chain inside the database (verifyHashChain) and the signed anchors outside
 * it (anchors.ts). The chain alone catches an event edited in place; the anchors catch what a database
 * writer can do on top: re-hash the tail after an edit, reorder events and re-hash, or cut the tail off and
 * move the head back. Each anchor says "at this moment the event at position P had hash H"; an anchor whose
 * event now has another hash, or is gone, or lies beyond the head, is the evidence.
 */
export type AuditBreak = {
  /** The first position not vouched for (problems of the anchor file itself are in `anchorProblem`). */
  globalPosition: number;
  eventId: string | null;
  streamId: string | null;
  reason: string;
};

export type AuditTrailResult = {
  ok: boolean;
  /** Events whose hash chain was walked. */
  checked: number;
  /** Anchors whose signature and linkage were checked and whose event still has the anchored hash. */
  anchorsChecked: number;
  headPosition: number;
  /** The position of the last anchor checked (events after it are covered by the chain alone). */
  lastAnchoredPosition: number | null;
  anchorFile: { path: string; found: boolean };
  /** The first bad position of the event history. */
  broken?: AuditBreak;
  /** The anchor file itself is missing (when required), forged, cut or reordered. */
  anchorProblem?: { line: number | null; reason: string };
};

export type AuditTrailOptions = {
  anchorFile: string;
  /** The verifier's key; else `<keyDir>/public.pem`. */
  publicKey?: KeyObject;
  keyDir?: string;
  /** A missing anchor file fails the verification when the store has events (default true). */
  requireAnchors?: boolean;
  /** Where the chain walk starts (trusting the stored hash before it); anchors are always all checked. */
  fromPosition?: number;
  pageSize?: number;
};

const ANCHOR_BATCH = 1000;

type Queryable = pg.Pool | pg.PoolClient | pg.Client;

export async function verifyAuditTrail(pool: Queryable, options: AuditTrailOptions): Promise<AuditTrailResult> {
  const anchorPath = path.resolve(options.anchorFile);
  // The file's size first, then the head: every anchor within that size was signed at a head no later
  // than the one read, so an anchor written while we verify is never mistaken for a truncation.
  const size = await fileSize(anchorPath);
  const head = await pool.query<{ position: string | number }>('select position from event_store_head where id');
  const headRow = head.rows[0];
  if (!headRow) throw new Error('event_store_head has no row: the event store schema is not applied');
  const headPosition = Number(headRow.position);

  const anchors: AnchorCheck =
    size === null
      ? { anchorsChecked: 0, lastAnchoredPosition: null }
      : await checkAnchors(pool, anchorPath, size, headPosition, publicKeyOf(options));
  const chain = await verifyHashChain(pool, { fromPosition: options.fromPosition, pageSize: options.pageSize });

  let anchorProblem: AuditTrailResult['anchorProblem'] = anchors.fileProblem
    ? { line: anchors.fileProblem.line, reason: anchors.fileProblem.reason }
    : undefined;
  if (size === null && (options.requireAnchors ?? true) && headPosition > 0) {
    anchorProblem = {
      line: null,
      reason: `the anchor file ${anchorPath} does not exist: nothing outside the database vouches for the chain`,
    };
  }

  // The first position not vouched for, whichever check found it. A chain break before the last anchor that
  // still matches is exact (an edit in place); an anchor mismatch bounds a rewrite from below.
  const candidates: AuditBreak[] = [];
  if (!chain.ok) {
    const b = chain.broken;
    candidates.push({ globalPosition: b.globalPosition, eventId: b.eventId, streamId: b.streamId, reason: b.reason });
  }
  if (anchors.problem) candidates.push(await eventAt(pool, anchors.problem.position, anchors.problem.reason));
  candidates.sort((x, y) => x.globalPosition - y.globalPosition);
  const broken = candidates[0];

  return {
    ok: !broken && !anchorProblem,
    checked: chain.checked,
    anchorsChecked: anchors.anchorsChecked,
    headPosition,
    lastAnchoredPosition: anchors.lastAnchoredPosition,
    anchorFile: { path: anchorPath, found: size !== null },
    ...(broken ? { broken } : {}),
    ...(anchorProblem ? { anchorProblem } : {}),
  };
}

function publicKeyOf(options: AuditTrailOptions): KeyObject {
  if (options.publicKey) return options.publicKey;
  if (!options.keyDir) throw new Error('verifyAuditTrail needs the public key or the key folder');
  return loadAnchorPublicKey(path.join(options.keyDir, PUBLIC_KEY_FILE));
}

async function fileSize(file: string): Promise<number | null> {
  try {
    return (await stat(file)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

async function eventAt(pool: Queryable, position: number, reason: string): Promise<AuditBreak> {
  const found = await pool.query<{ event_id: string; stream_id: string }>(
    'select event_id::text as event_id, stream_id from events where global_position = $1',
    [position],
  );
  const row = found.rows[0];
  return { globalPosition: position, eventId: row?.event_id ?? null, streamId: row?.stream_id ?? null, reason };
}

type AnchorCheck = {
  anchorsChecked: number;
  lastAnchoredPosition: number | null;
  /** The first position the anchors no longer vouch for. */
  problem?: { position: number; reason: string };
  fileProblem?: AnchorFileProblem;
};

/**
 * Streams the anchor file: each line's signature and linkage, then, a batch at a time, the event at each
 * anchored position against the anchored hash. Stops at the first problem of either kind.
 */
async function checkAnchors(
  pool: Queryable,
  file: string,
  size: number,
  headPosition: number,
  publicKey: KeyObject,
): Promise<AnchorCheck> {
  const checker = anchorChainChecker(publicKey);
  const state: AnchorCheck = { anchorsChecked: 0, lastAnchoredPosition: null };
  let batch: { line: number; anchor: Anchor }[] = [];
  const flush = async (): Promise<boolean> => {
    const problem = await compareBatch(pool, batch, headPosition, state);
    batch = [];
    if (problem) state.problem = problem;
    return !problem;
  };
  for await (const entry of anchorFileLines(file, size)) {
    const result = checker.check(entry);
    if ('problem' in result) {
      state.fileProblem = result.problem;
      break;
    }
    batch.push({ line: entry.line, anchor: result.anchor });
    if (batch.length >= ANCHOR_BATCH && !(await flush())) return state;
  }
  if (batch.length > 0) await flush();
  return state;
}

async function compareBatch(
  pool: Queryable,
  batch: readonly { line: number; anchor: Anchor }[],
  headPosition: number,
  state: AnchorCheck,
): Promise<{ position: number; reason: string } | null> {
  const positions = batch.map((b) => b.anchor.position).filter((p) => p <= headPosition);
  const stored = new Map<number, string>();
  if (positions.length > 0) {
    const found = await pool.query<{ global_position: string | number; hash: string }>(
      'select global_position, hash from events where global_position = any($1::bigint[])',
      [positions],
    );
    for (const r of found.rows) stored.set(Number(r.global_position), r.hash);
  }
  for (const { line, anchor } of batch) {
    const signed = `anchor line ${line} (signed ${anchor.at})`;
    if (anchor.position > headPosition) {
      return {
        position: headPosition + 1,
        reason:
          `truncated: events after position ${headPosition} are missing though anchored ` +
          `(${signed} vouches for position ${anchor.position})`,
      };
    }
    const hash = stored.get(anchor.position);
    if (hash === undefined) {
      return { position: anchor.position, reason: `the anchored event at position ${anchor.position} is missing (${signed})` };
    }
    if (hash !== anchor.hash) {
      const good = state.lastAnchoredPosition ?? 0;
      return {
        position: good + 1,
        reason:
          `history after position ${good} was rewritten: the event at position ${anchor.position} no longer has ` +
          `the hash signed in ${signed}; ` +
          (good + 1 === anchor.position
            ? `position ${anchor.position} is the first that differs`
            : `the first changed event is one of positions ${good + 1}..${anchor.position}`) +
          (good > 0 ? ` (the anchor at ${good} still matches)` : ''),
      };
    }
    state.anchorsChecked++;
    state.lastAnchoredPosition = anchor.position;
  }
  return null;
}
