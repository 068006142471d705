import { existsSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { loadConfig } from '../platform/src/config';
import { openDatabase } from '../platform/src/db/connect';
import { PUBLIC_KEY_FILE, anchorChainChecker, keyIdOf, loadAnchorPublicKey, type Anchor } from '../platform/src/event-store/anchors';
import { computeEventHash, verifyHashChain } from '../platform/src/event-store/hash';
import { verifyAuditTrail } from '../platform/src/event-store/verify-trail';

/**
 * `npm run audit:verify` — checks the audit trail (design.md §2, issue 6). Exit 0: intact; 1: tampering found
 * (the first bad position is named); 2: could not check.
 *
 * Against the database (DATABASE_URL or the embedded one; read-only, applies no schema):
 *   audit:verify [--from=<position>] [--anchor-file <path>] [--public-key <path>] [--no-anchors]
 * walks the hash chain and checks every signed anchor (AUDIT_ANCHOR_FILE, key AUDIT_KEY_DIR/public.pem): a
 * re-hashed, reordered or truncated history fails. A missing anchor file fails too (exit 1) while the store
 * has events; `--no-anchors` checks the chain alone (what a database writer can defeat), and says so.
 *
 * Against the API, with nothing but an auditor's access token and the public key:
 *   audit:verify --from-api <url> --ba <id> [--token <access token> | AUDIT_TOKEN=…] [--public-key <path>]
 * recomputes the hash of each of the BA's events from the fields the API returns, checks every anchor the API
 * lists (signature with the given key, linkage, positions) and each of the BA's events that was anchored.
 */
const USAGE =
  'usage: audit:verify [--from=<position>] [--anchor-file <path>] [--public-key <path>] [--no-anchors]\n' +
  '       audit:verify --from-api <url> --ba <id> [--token <access token>] [--public-key <path>]';

type Args = {
  from?: string;
  'no-anchors'?: boolean;
  'anchor-file'?: string;
  'public-key'?: string;
  'from-api'?: string;
  ba?: string;
  token?: string;
  help?: boolean;
};

async function main(): Promise<number> {
  let args: Args;
  try {
    args = parseArgs({
      options: {
        from: { type: 'string' },
        'no-anchors': { type: 'boolean' },
        'anchor-file': { type: 'string' },
        'public-key': { type: 'string' },
        'from-api': { type: 'string' },
        ba: { type: 'string' },
        token: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }).values;
  } catch (err) {
    console.error(`audit:verify: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  return args['from-api'] ? fromApi(args) : fromDatabase(args);
}

async function fromDatabase(args: Args): Promise<number> {
  const fromPosition = args.from === undefined ? 1 : Number(args.from);
  if (!Number.isInteger(fromPosition) || fromPosition < 1) {
    console.error(`audit:verify: --from must be a position of 1 or more, got ${args.from}`);
    return 2;
  }
  const config = loadConfig();
  const anchorFile = path.resolve(args['anchor-file'] ?? config.audit.anchorFile);
  const publicKeyFile = path.resolve(args['public-key'] ?? path.join(config.audit.keyDir, PUBLIC_KEY_FILE));
  const db = await openDatabase(config, { applySchema: false, poolSize: 2 });
  try {
    const started = Date.now();
    if (args['no-anchors']) {
      const result = await verifyHashChain(db.pool, { fromPosition });
      const ms = Date.now() - started;
      if (result.ok) {
        console.log(
          `audit:verify: hash chain intact: ${result.checked} events checked from position ${fromPosition} in ${ms} ms. ` +
            'Anchors not checked (--no-anchors): the chain alone does not show a re-hashed or truncated history.',
        );
        return 0;
      }
      reportBreak(result.broken, result.checked, null);
      return 1;
    }

    // The key is needed only when there are anchors to check; a missing anchor file is reported below.
    let publicKey;
    if (existsSync(anchorFile)) {
      if (!existsSync(publicKeyFile)) {
        console.error(`audit:verify: no public key at ${publicKeyFile} to check the anchors with (give --public-key)`);
        return 2;
      }
      publicKey = loadAnchorPublicKey(publicKeyFile);
    }
    const result = await verifyAuditTrail(db.pool, { anchorFile, publicKey, fromPosition });
    const ms = Date.now() - started;
    const anchored =
      `${result.anchorsChecked} anchors checked` +
      (result.lastAnchoredPosition !== null
        ? ` (last anchored position ${result.lastAnchoredPosition} of head ${result.headPosition})`
        : '');
    if (result.ok) {
      console.log(
        `audit:verify: hash chain intact: ${result.checked} events checked from position ${fromPosition} in ${ms} ms; ` +
          (result.anchorFile.found
            ? `${anchored} in ${anchorFile}`
            : `no anchor file at ${anchorFile} (the store is empty)`),
      );
      return 0;
    }
    if (result.broken) reportBreak(result.broken, result.checked, anchored);
    if (result.anchorProblem) {
      console.error(
        `audit:verify: anchor file ${anchorFile} FAILS: ${result.anchorProblem.reason}. ${anchored}.` +
          (result.anchorFile.found ? '' : ' Run with --no-anchors to check the chain alone.'),
      );
    }
    return 1;
  } catch (error) {
    if ((error as { code?: string }).code === '42P01') {
      console.error('audit:verify: this database has no event store (events or event_store_head is missing)');
      return 2;
    }
    throw error;
  } finally {
    await db.close();
  }
}

function reportBreak(
  b: { globalPosition: number; eventId: string | null; streamId: string | null; reason: string },
  checked: number,
  anchored: string | null,
): void {
  console.error(
    `audit:verify: audit trail BROKEN at global position ${b.globalPosition}` +
      (b.eventId ? ` (event ${b.eventId} in stream ${b.streamId})` : '') +
      `: ${b.reason}. ${checked} events of the chain verified` +
      (anchored ? `; ${anchored}.` : '.'),
  );
}

// ---------------------------------------------------------------------------------------------------------
// --from-api

type ApiEvent = {
  id: string;
  eventId?: string;
  streamId: string;
  version: number;
  globalPosition: number;
  type: string;
  data: unknown;
  metadata: unknown;
  recordedMicros: string | null;
  dataText: string | null;
  metadataText: string | null;
  prevHash: string;
  hash: string;
};

type ApiAnchor = { id: number; text: string };

const PAGE = 100;

async function fetchAll<T>(base: string, resource: string, sort: string, token: string): Promise<T[]> {
  const rows: T[] = [];
  for (let start = 0; ; start += PAGE) {
    const url = new URL(`/api/${resource}`, base);
    url.searchParams.set('sort', sort);
    url.searchParams.set('range', JSON.stringify([start, start + PAGE - 1]));
    const res = await fetch(url, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } });
    if (!res.ok) {
      const body = (await res.json().catch(() => null)) as { message?: string } | null;
      throw new Error(`GET ${url.pathname} answered ${res.status}${body?.message ? `: ${body.message}` : ''}`);
    }
    const page = (await res.json()) as T[];
    rows.push(...page);
    const total = Number(/\/(\d+)$/.exec(res.headers.get('content-range') ?? '')?.[1] ?? rows.length);
    if (page.length === 0 || rows.length >= total) return rows;
  }
}

async function fromApi(args: Args): Promise<number> {
  const base = args['from-api'] ?? '';
  const baId = args.ba;
  const token = args.token ?? process.env['AUDIT_TOKEN'];
  if (!baId || !token) {
    console.error(`audit:verify: --from-api needs --ba <id> and an access token (--token or AUDIT_TOKEN)\n${USAGE}`);
    return 2;
  }
  const publicKeyFile = path.resolve(args['public-key'] ?? path.join(loadConfig().audit.keyDir, PUBLIC_KEY_FILE));
  const publicKey = loadAnchorPublicKey(publicKeyFile);
  const problems: string[] = [];

  // 1. Each event's hash, recomputed from the fields the API gives.
  const events = await fetchAll<ApiEvent>(base, `business-associates/${encodeURIComponent(baId)}/events`, '["version","ASC"]', token);
  for (const [i, e] of events.entries()) {
    const at = `event at global position ${e.globalPosition} (version ${e.version}, ${e.type})`;
    if (e.version !== i) problems.push(`${at}: expected version ${i}: the stream has a gap`);
    if (e.recordedMicros === null || e.dataText === null || e.metadataText === null) {
      problems.push(`${at}: the API gives no hashed fields (recordedMicros, dataText, metadataText)`);
      continue;
    }
    const recomputed = computeEventHash(e.prevHash, {
      globalPosition: e.globalPosition,
      streamId: e.streamId,
      version: e.version,
      eventId: e.eventId ?? e.id,
      type: e.type,
      recordedMicros: e.recordedMicros,
      dataText: e.dataText,
      metadataText: e.metadataText,
    });
    if (recomputed !== e.hash) problems.push(`${at}: its fields hash to ${recomputed}, not to the ${e.hash} shown`);
    // What a person reads (data, metadata) must be what was hashed.
    if (!isDeepStrictEqual(JSON.parse(e.dataText), e.data)) problems.push(`${at}: data differs from the hashed dataText`);
    if (!isDeepStrictEqual(JSON.parse(e.metadataText), e.metadata))
      problems.push(`${at}: metadata differs from the hashed metadataText`);
  }

  // 2. The anchors the API lists: signed with the key we hold, linked, positions growing.
  const lines = await fetchAll<ApiAnchor>(base, 'audit/anchors', '["id","ASC"]', token);
  const checker = anchorChainChecker(publicKey);
  const anchored = new Map<number, Anchor>();
  for (const [i, row] of lines.entries()) {
    if (row.id !== i + 1) {
      problems.push(`anchor list: expected line ${i + 1}, got ${row.id}`);
      break;
    }
    const result = checker.check({ line: row.id, text: row.text });
    if ('problem' in result) {
      problems.push(result.problem.reason);
      break;
    }
    anchored.set(result.anchor.position, result.anchor);
  }

  // 3. The BA's events that an anchor names.
  let matched = 0;
  for (const e of events) {
    const anchor = anchored.get(e.globalPosition);
    if (!anchor) continue;
    if (anchor.hash === e.hash) matched++;
    else problems.push(`event at global position ${e.globalPosition}: the API shows hash ${e.hash}, the anchor of ${anchor.at} signed ${anchor.hash}`);
  }

  const summary =
    `${events.length} events of BA ${baId} recomputed; ${anchored.size} of ${lines.length} anchors verified with key ` +
    `${keyIdOf(publicKey)}; ${matched} of the BA's events are anchored and match`;
  if (problems.length === 0) {
    console.log(`audit:verify --from-api: intact: ${summary}.`);
    return 0;
  }
  for (const p of problems) console.error(`audit:verify --from-api: ${p}`);
  console.error(`audit:verify --from-api: ${problems.length} problem(s); ${summary}.`);
  return 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`audit:verify: could not verify: ${message}`);
    process.exit(2);
  },
);
