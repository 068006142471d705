import path from 'node:path';
import { Router } from 'express';
import type { Pool } from 'pg';
import { z } from 'zod';
import { anchorFileIndex } from '../../../platform/src/event-store/anchor-file-index';
import {
  PUBLIC_KEY_FILE,
  checkAnchorLine,
  keyIdOf,
  loadAnchorPublicKey,
} from '../../../platform/src/event-store/anchors';
import { verifyAuditTrail, type AuditTrailResult } from '../../../platform/src/event-store/verify-trail';
import { HttpError } from '../http/problem';
import { parseListQuery, sendList } from '../http/simple-rest';
import { auditReaders } from './access';

/**
 * The anchors of the hash chain (platform/src/event-store/anchors.ts) over HTTP, for auditors and MLL-ADMIN:
 * the signed lines as written (each with its exact text, so the linkage can be recomputed), the public key
 * they verify with, and the same verification `npm run audit:verify` runs. The api process needs only the
 * public key and read access to the anchor file; the private key stays with the projector.
 */
export type AnchorRoutesDeps = {
  pool: Pool;
  /** config.audit; absent (an app without anchoring, most tests): the routes answer 404. */
  audit?: { keyDir: string; anchorFile: string };
};

/** One line of GET /api/audit/anchors. */
export type AnchorRow = {
  /** The line number in the anchor file (1 = the first anchor). */
  id: number;
  position: number | null;
  hash: string | null;
  at: string | null;
  prev: string | null;
  keyId: string | null;
  signature: string | null;
  /** The line's exact text: `prev` of the next line is its SHA-256. */
  text: string;
  /** The signature checked with the server's public key (a verifier checks it with its own copy). */
  signatureValid: boolean;
};

/** GET /api/audit/public-key. */
export type AnchorPublicKey = { algorithm: 'Ed25519'; keyId: string; publicKeyPem: string };

export type { AuditTrailResult };

const NOT_CONFIGURED = 'Chain anchoring is not configured for this server';
const NO_KEY = 'No anchor key yet: the projector creates it when it first starts';

export function anchorRoutes(deps: AnchorRoutesDeps): Router {
  const router = Router();
  const index = deps.audit ? anchorFileIndex(deps.audit.anchorFile) : null;
  const publicKeyFile = deps.audit ? path.join(deps.audit.keyDir, PUBLIC_KEY_FILE) : null;
  const publicKey = () => {
    if (!publicKeyFile) throw new HttpError(404, NOT_CONFIGURED);
    try {
      return loadAnchorPublicKey(publicKeyFile);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new HttpError(503, NO_KEY);
      throw err;
    }
  };

  router.get('/audit/anchors', auditReaders(), async (req, res) => {
    const { sort, range } = parseListQuery(req.query, {
      sortFields: ['id'] as const,
      defaultSort: { field: 'id', order: 'DESC' },
      filter: z.object({}).strict(),
      defaultPageSize: 25,
    });
    if (!index) throw new HttpError(404, NOT_CONFIGURED);
    const key = publicKey();
    const keyId = keyIdOf(key);
    const { total, lines } = await index.page(range.offset, range.limit, sort.order);
    const rows = lines.map(({ line, text }): AnchorRow => {
      const { anchor, problem } = checkAnchorLine(text, key, keyId);
      return {
        id: line,
        position: anchor?.position ?? null,
        hash: anchor?.hash ?? null,
        at: anchor?.at ?? null,
        prev: anchor?.prev ?? null,
        keyId: anchor?.key ?? null,
        signature: anchor?.sig ?? null,
        text,
        signatureValid: anchor !== null && problem === null,
      };
    });
    sendList(res, 'anchors', range, rows, total);
  });

  router.get('/audit/public-key', auditReaders(), (_req, res) => {
    const key = publicKey();
    const body: AnchorPublicKey = {
      algorithm: 'Ed25519',
      keyId: keyIdOf(key),
      publicKeyPem: key.export({ type: 'spki', format: 'pem' }) as string,
    };
    res.json(body);
  });

  // A walk of the whole chain: concurrent callers share the one in flight rather than each starting another.
  let running: Promise<AuditTrailResult> | null = null;
  router.post('/audit/verify', auditReaders(), async (_req, res) => {
    if (!deps.audit) throw new HttpError(404, NOT_CONFIGURED);
    const anchorFile = deps.audit.anchorFile;
    const key = publicKey();
    running ??= verifyAuditTrail(deps.pool, { anchorFile, publicKey: key }).finally(() => {
      running = null;
    });
    const result: AuditTrailResult = await running;
    res.json(result);
  });

  return router;
}
