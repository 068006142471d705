import { randomUUID } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import type { Pool } from 'pg';
import { z } from 'zod';
import type { EventStore } from '../../../domain/src/event-store/port';
import { MASTERS, savedMessage, type MasterDefinition } from '../../../domain/src/masters/definitions';
import { masterItemStreamId } from '../../../domain/src/masters/events';
import type { Role } from '../../../domain/src/identity/roles';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import {
  COMMON_SORT_FIELDS,
  getMasterItem,
  listMasterItems,
  masterCounts,
  type MasterItem,
} from '../../../projections/src/masters/masters.queries';
import { principalOf, publicRoute, requireAuth, type Principal } from '../http/auth';
import { bindIdempotencyKey } from '../http/idempotency';
import { intFilter, parseListQuery, sendList } from '../http/simple-rest';
import { requestIds } from '../onboarding/access';
import { createItem, parseItemId, parseValues, updateItem, type MasterWriteDeps, type WriteContext } from './service';
import { masterWorkbookRoutes, type WorkbookDeps } from './workbook-routes';

/**
 * The Masters application's API, generic over every definition of domain/src/masters/definitions.ts:
 * list, get, create, change (values and/or status), the item's event history, workbook export and import,
 * and the dashboard's counts. Everyone signed in reads (the portal's selects); BAs see active items only.
 * MLL-ADMIN and MDM write, on the console. Companies are readable without sign-in (registration).
 */
export type MasterRouteDeps = MasterWriteDeps & Pick<WorkbookDeps, 'blobStore' | 'uploadMaxBytes'> & { pool: Pool; store: EventStore };

export const WRITER_ROLES: readonly Role[] = ['MLL-ADMIN', 'MDM'];
/** The Masters dashboard, exports and an item's history: the writers and the auditors who check them. */
export const READER_ROLES: readonly Role[] = ['MLL-ADMIN', 'MDM', 'Auditor'];

export const mastersMessages = {
  notFound: (def: MasterDefinition) => `${def.singular} not found`,
  saved: savedMessage,
} as const;

/** Staff and auditors (the console) see inactive items too; BAs, BA users and anonymous callers do not. */
const seesInactive = (res: Response): boolean => {
  const p = res.locals['principal'] as Principal | undefined;
  return p?.app === 'console';
};

export const writerActor = (p: Principal): Actor => ({
  userId: p.userId,
  role: p.roles.includes('MLL-ADMIN') ? 'MLL-ADMIN' : 'MDM',
  name: p.name,
});

const idsOf = <T>(v: T | T[] | undefined): T[] | undefined => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);

function filterSchema(def: MasterDefinition) {
  const id = def.idKind === 'int' ? intFilter : z.string().trim().max(25);
  const shape: Record<string, z.ZodType> = {
    q: z.string().trim().max(100),
    status: z.enum(['active', 'inactive']),
    // react-admin's getMany: filter={"id":[...]}.
    id: z.union([id, z.array(id).max(100)]),
  };
  for (const f of def.fields) {
    if (f.kind === 'ref' || f.kind === 'refs') shape[f.name] = z.union([intFilter, z.array(intFilter).max(100)]);
  }
  return z.object(shape).partial().strict();
}

export function masterRoutes(deps: MasterRouteDeps): Router {
  const router = Router();
  const writers = requireAuth({ roles: WRITER_ROLES, app: 'console' });
  const readers = requireAuth({ roles: READER_ROLES, app: 'console' });

  router.get('/masters/counts', readers, async (_req, res) => {
    const counts = new Map((await masterCounts(deps.pool)).map((c) => [c.master, c]));
    res.json(
      MASTERS.map((def) => ({
        master: def.resource,
        label: def.label,
        active: counts.get(def.resource)?.active ?? 0,
        inactive: counts.get(def.resource)?.inactive ?? 0,
      })),
    );
  });

  for (const def of MASTERS) {
    const base = `/${def.resource}`;
    const read = def.publicRead ? publicRoute() : requireAuth();
    const filter = filterSchema(def);
    const sortFields = [...def.fields.map((f) => f.name), ...COMMON_SORT_FIELDS];
    const refFields = def.fields.filter((f) => f.kind === 'ref' || f.kind === 'refs').map((f) => f.name);

    /** The item as the caller may see it; 404 for an unknown id and, for BAs, an inactive item. */
    async function visible(req: Request, res: Response): Promise<MasterItem> {
      const id = parseItemId(def, String(req.params['id']));
      const item = id === null ? null : await getMasterItem(deps.pool, def.resource, id);
      if (!item || (item.status !== 'active' && !seesInactive(res))) throw new DomainError('not_found', mastersMessages.notFound(def));
      return item;
    }

    function context(req: Request, res: Response): WriteContext & { key: string | null; fingerprint: string | null } {
      const p = principalOf(res);
      const ids = requestIds(req);
      return {
        actor: writerActor(p),
        // The client's key is scoped to the user: two users' keys never meet.
        requestId: ids.key ? `${p.userId}:${ids.key}` : randomUUID(),
        correlationId: ids.correlationId,
        retryable: ids.key !== null,
        key: ids.key,
        fingerprint: ids.fingerprint,
      };
    }

    const list = async (req: Request, res: Response, resource = def.resource) => {
      const { sort, range, filter: f } = parseListQuery(req.query, {
        sortFields,
        defaultSort: { field: def.display, order: 'ASC' },
        filter,
        defaultPageSize: 100,
      });
      let status = f['status'] as 'active' | 'inactive' | undefined;
      if (!seesInactive(res)) {
        if (status === 'inactive') return sendList(res, resource, range, [], 0);
        status = 'active';
      }
      const refs: Record<string, number[]> = {};
      for (const name of refFields) {
        const ids = idsOf(f[name] as number | number[] | undefined);
        if (ids) refs[name] = ids;
      }
      const { rows, total } = await listMasterItems(deps.pool, def, {
        q: f['q'] as string | undefined,
        status,
        ids: idsOf(f['id'] as number | string | (number | string)[] | undefined),
        refs,
        sort,
        range,
      });
      sendList(res, resource, range, rows, total);
    };
    router.get(base, read, (req, res) => list(req, res));
    // The BA users' department select read /api/ba-departments before the masters existed; same list.
    if (def.resource === 'departments') router.get('/ba-departments', requireAuth(), (req, res) => list(req, res, 'ba-departments'));

    // Before "/:id" so "export" is not taken for an id.
    router.use(masterWorkbookRoutes({ ...deps, def, readers, writers, context }));

    router.get(`${base}/:id`, read, async (req, res) => {
      res.json(await visible(req, res));
    });

    router.get(`${base}/:id/events`, readers, async (req, res) => {
      const id = parseItemId(def, String(req.params['id']));
      const events = id === null ? [] : await deps.store.readStream(masterItemStreamId(def.resource, id));
      if (events.length === 0) throw new DomainError('not_found', mastersMessages.notFound(def));
      res.json(
        events.map((e) => ({
          version: e.version,
          globalPosition: e.globalPosition,
          type: e.type,
          data: e.data,
          actor: e.metadata.actor,
          at: e.metadata.at,
          recordedAt: e.recordedAt,
        })),
      );
    });

    router.post(base, writers, async (req, res) => {
      const ctx = context(req, res);
      const { values, status } = parseValues(def, 'create', req.body);
      if (ctx.key && ctx.fingerprint) await bindIdempotencyKey(deps.pool, ctx.actor.userId, ctx.key, ctx.fingerprint);
      const { id } = await createItem(deps, def, values, status, ctx);
      const item = await getMasterItem(deps.pool, def.resource, id);
      res.status(201).json({ ...(item ?? { id, ...values, status: status ?? 'active' }), message: mastersMessages.saved(def) });
    });

    router.put(`${base}/:id`, writers, async (req, res) => {
      const ctx = context(req, res);
      const id = parseItemId(def, String(req.params['id']));
      if (id === null) throw new DomainError('not_found', mastersMessages.notFound(def));
      const { values, status } = parseValues(def, 'update', req.body);
      if (ctx.key && ctx.fingerprint) await bindIdempotencyKey(deps.pool, ctx.actor.userId, ctx.key, ctx.fingerprint);
      await updateItem(deps, def, id, values, status, ctx);
      const item = await getMasterItem(deps.pool, def.resource, id);
      if (!item) throw new DomainError('not_found', mastersMessages.notFound(def));
      res.json({ ...item, message: mastersMessages.saved(def) });
    });
  }
  return router;
}
