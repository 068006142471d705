import { createHash, randomUUID } from 'node:crypto';
import { Router, type Request } from 'express';
import type { Pool } from 'pg';
import { v5 as uuidv5 } from 'uuid';
import { z } from 'zod';
import { annexureDecider, annexureMessages, type AnnexureState } from '../../../domain/src/annexures/decide';
import { annexureStreamId, type AnnexureCommand } from '../../../domain/src/annexures/events';
import { handleCommand } from '../../../domain/src/event-store/handle-command';
import type { EventStore } from '../../../domain/src/event-store/port';
import type { Role } from '../../../domain/src/identity/roles';
import { DomainError } from '../../../domain/src/shared/errors';
import { fieldErrors, safeText } from '../../../domain/src/validation/fields';
import type { BlobStore } from '../../../platform/src/files';
import {
  ANNEXURE_SORT_FIELDS,
  getAnnexure,
  listAnnexures,
  toAnnexureRow,
  type AnnexureRecord,
  type AnnexureRow,
} from '../../../projections/src/annexures/annexures.queries';
import { waitForProjections } from '../../../projections/src/runner';
import { principalOf, requireAuth, type Principal } from '../http/auth';
import { bindIdempotencyKey } from '../http/idempotency';
import { parseListQuery, sendList } from '../http/simple-rest';
import { receiveUpload, sendFile, type UploadedFile } from '../http/uploads';
import { requestIds } from '../onboarding/access';

/**
 * PO annexures (spec 001 §2, §3, §7): staff (MLL-ADMIN, MDM) upload, replace and withdraw them in the
 * console; every signed-in user lists and downloads them (BAs see them as cards under "PO Annexures").
 * Multipart in, events out (`annexure-<id>`), reads from the `annexures` projection.
 */
export type AnnexureRoutesDeps = {
  pool: Pool;
  store: EventStore;
  blobStore: BlobStore;
  /** UPLOAD_MAX_BYTES. */
  maxBytes: number;
  projectionWaitMs?: number;
};

export const annexureRouteMessages = {
  uploaded: 'Uploaded successfully',
  replaced: 'File uploaded successfully',
  withdrawn: 'File deleted successfully',
  titleRequired: 'Please enter a title',
  nothingToChange: 'Please enter a title or choose a file',
} as const;

const STAFF: readonly Role[] = ['MLL-ADMIN', 'MDM'];
/** Annexure ids made from a client's Idempotency-Key: a retried upload lands on the same annexure. */
const ANNEXURE_ID_NAMESPACE = '2b0f8f7e-8e2a-4c55-9f0b-5b1b6a0c7d31';

const title = z
  .string({ error: annexureRouteMessages.titleRequired })
  .trim()
  .min(1, { error: annexureRouteMessages.titleRequired })
  .pipe(safeText());

function parseTitle(value: string | undefined): string {
  const parsed = title.safeParse(value);
  if (parsed.success) return parsed.data;
  const message = Object.values(fieldErrors(parsed.error))[0] ?? annexureRouteMessages.titleRequired;
  throw new DomainError('validation', message, { title: message });
}

const listFilter = z
  .object({
    q: z.string().trim().max(100),
    // react-admin's getMany: filter={"id":[...]}.
    id: z.union([z.string().max(100), z.array(z.string().max(100)).max(100)]),
  })
  .partial()
  .strict();

const idParam = z.uuid();
const notFound = () => new DomainError('not_found', annexureMessages.notFound);

/** The acting role recorded in the events: the first staff role the caller holds. */
const actorOf = (p: Principal) => ({ userId: p.userId, role: p.roles.find((r) => STAFF.includes(r)) ?? 'MLL-ADMIN', name: p.name });

/** sha256 of what the request asked for, binding an Idempotency-Key to it (multipart bodies are not JSON). */
const fingerprintOf = (req: Request, title: string | undefined, file: UploadedFile | null): string =>
  createHash('sha256')
    .update(JSON.stringify([req.method, req.originalUrl.split('?')[0], title ?? null, file?.name ?? null, file?.sha256 ?? null]))
    .digest('hex');

const fromState = (id: string, state: AnnexureState, at: string): AnnexureRow => ({
  id,
  title: state.title ?? '',
  fileName: state.file?.name ?? '',
  fileType: state.file?.type ?? '',
  size: state.file?.size ?? 0,
  status: state.status === 'withdrawn' ? 'withdrawn' : 'active',
  uploadedAt: at,
  updatedAt: at,
});

export function annexureRoutes(deps: AnnexureRoutesDeps): Router {
  const { pool, store, blobStore } = deps;
  const router = Router();
  const signedIn = requireAuth();
  const staff = requireAuth({ roles: STAFF, app: 'console' });

  /** The annexure the path names; 404 for a malformed or unknown id, and (unless asked) a withdrawn one. */
  async function annexureOf(req: Request, options: { withdrawn?: boolean } = {}): Promise<AnnexureRecord> {
    const id = idParam.safeParse(req.params['id']);
    const record = id.success ? await getAnnexure(pool, id.data) : null;
    if (!record || (record.status !== 'active' && !options.withdrawn)) throw notFound();
    return record;
  }
  const published = (req: Request) => annexureOf(req);

  /** Appends through the decider and waits (bounded) for the list to show it; answers the row. */
  async function run(p: Principal, id: string, command: AnnexureCommand, commandId: string, requestId: string | null) {
    const at = new Date().toISOString();
    const result = await handleCommand(store, annexureStreamId(id), annexureDecider, command, {
      actor: actorOf(p),
      at,
      companyCode: null,
      correlationId: requestId ?? commandId,
      causationId: null,
      workflowId: null,
      requestId,
      commandId,
    });
    const position = result.lastGlobalPosition;
    const caughtUp =
      position === 0 ||
      (await waitForProjections(pool, position, { timeoutMs: deps.projectionWaitMs ?? 2000, names: ['annexures'] }));
    const record = caughtUp ? await getAnnexure(pool, id) : null;
    return record ? toAnnexureRow(record) : fromState(id, result.state, at);
  }

  router.get('/annexures', signedIn, async (req, res) => {
    const { sort, range, filter } = parseListQuery(req.query, {
      sortFields: ANNEXURE_SORT_FIELDS,
      defaultSort: { field: 'uploadedAt', order: 'ASC' },
      filter: listFilter,
      // The portal shows every annexure as a card: one page holds them all.
      defaultPageSize: 100,
    });
    const ids = filter.id === undefined ? undefined : Array.isArray(filter.id) ? filter.id : [filter.id];
    const { rows, total } = await listAnnexures(pool, { q: filter.q, ids, sort, range });
    sendList(res, 'annexures', range, rows, total);
  });

  router.get('/annexures/:id', signedIn, async (req, res) => {
    res.json(toAnnexureRow(await published(req)));
  });

  router.get('/annexures/:id/file', signedIn, async (req, res) => {
    const record = await published(req);
    // Previews (PDFs, images) inline on request; sendFile keeps everything else, xlsx included, an attachment.
    await sendFile(res, blobStore, record.file, { inline: req.query['inline'] === '1' });
  });

  router.post('/annexures', staff, async (req, res) => {
    const p = principalOf(res);
    const ids = requestIds(req);
    const { fields, file } = await receiveUpload(req, {
      blobStore,
      kinds: 'annexure',
      maxBytes: deps.maxBytes,
      textFields: ['title'],
    });
    const name = parseTitle(fields['title']);
    if (ids.key) await bindIdempotencyKey(pool, p.userId, ids.key, fingerprintOf(req, name, file));
    const id = ids.key ? uuidv5(`${p.userId}:${ids.key}`, ANNEXURE_ID_NAMESPACE) : randomUUID();
    const row = await run(p, id, { type: 'UploadAnnexure', id, title: name, file }, `annexure:${id}:upload`, ids.key);
    res.status(201).json({ ...row, message: annexureRouteMessages.uploaded });
  });

  router.put('/annexures/:id', staff, async (req, res) => {
    const p = principalOf(res);
    const ids = requestIds(req);
    // Checked before the body is read: nothing is stored for an annexure that is not there.
    const { id } = await published(req);
    const { fields, file } = await receiveUpload(req, {
      blobStore,
      kinds: 'annexure',
      maxBytes: deps.maxBytes,
      textFields: ['title'],
      optional: true,
    });
    const name = fields['title'] === undefined ? undefined : parseTitle(fields['title']);
    if (name === undefined && file === null) {
      throw new DomainError('validation', annexureRouteMessages.nothingToChange, { file: annexureRouteMessages.nothingToChange });
    }
    if (ids.key) await bindIdempotencyKey(pool, p.userId, ids.key, fingerprintOf(req, name, file));
    const requestId = ids.key ? `${p.userId}:${ids.key}` : randomUUID();
    const command: AnnexureCommand = {
      type: 'ReplaceAnnexure',
      id,
      ...(name === undefined ? {} : { title: name }),
      ...(file === null ? {} : { file }),
    };
    const row = await run(p, id, command, `annexure:${id}:replace:${requestId}`, ids.key);
    res.json({ ...row, message: annexureRouteMessages.replaced });
  });

  router.post('/annexures/:id/withdraw', staff, async (req, res) => {
    const p = principalOf(res);
    // A repeated withdrawal (a retry after a lost answer) is answered like the first.
    const { id } = await annexureOf(req, { withdrawn: true });
    // One withdrawal per annexure: the command id is the annexure's, so a repeated click appends nothing.
    const row = await run(p, id, { type: 'WithdrawAnnexure', id }, `annexure:${id}:withdraw`, null);
    res.json({ ...row, message: annexureRouteMessages.withdrawn });
  });

  return router;
}
