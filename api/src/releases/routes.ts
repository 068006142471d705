import { Router, type Request, type Response } from 'express';
import type { Pool } from 'pg';
import { z } from 'zod';
import { handleCommand } from '../../../domain/src/event-store/handle-command';
import type { EventStore } from '../../../domain/src/event-store/port';
import type { ReleaseCommand } from '../../../domain/src/releases/commands';
import { releaseDecider } from '../../../domain/src/releases/decide';
import {
  classesFor,
  DEVICE_TYPES,
  FEATURE_CLASSES,
  parseRelease,
  parseReleaseId,
  releaseIdOf,
  releaseMessages,
  releaseStreamId,
  type FeatureClass,
} from '../../../domain/src/releases/fields';
import { isBaRole } from '../../../domain/src/identity/roles';
import { DomainError } from '../../../domain/src/shared/errors';
import {
  getRelease,
  listReleases,
  type ReleaseRow,
  type ReleaseSortField,
} from '../../../projections/src/releases/releases.queries';
import { waitForProjections } from '../../../projections/src/runner';
import { principalOf, publicRoute, requireAuth, type Principal } from '../http/auth';
import { bindIdempotencyKey } from '../http/idempotency';
import { parseListQuery, sendList } from '../http/simple-rest';
import { requestIds } from '../onboarding/access';

/**
 * Release notes (spec 000 §2 "What's New" and the release page; §3 "Release entry"). Reading is public: the
 * release page needs no login, and What's New lists the classes of release meant for the caller. Staff with
 * MLL-ADMIN publish, edit and withdraw them in the console.
 */
export type ReleaseDeps = { pool: Pool; store: EventStore; projectionWaitMs?: number };

export const releaseRouteMessages = {
  withdrawn: 'Release withdrawn successfully',
  audience: 'featureClass must be ba or all',
} as const;

const SORT_FIELDS = [
  'releasedOn',
  'versionReleased',
  'deviceType',
  'featureClass',
] as const satisfies readonly ReleaseSortField[];

const filterSchema = z
  .object({
    /** Exactly this class (the console's filter). */
    featureClass: z.enum(FEATURE_CLASSES),
    /** What a user of this class is shown (ba → ba and all; all → all). */
    audience: z.enum(FEATURE_CLASSES),
    deviceType: z.enum(DEVICE_TYPES),
    // react-admin's getMany: filter={"id":[...]}.
    id: z.union([z.string().max(40), z.array(z.string().max(40)).max(100)]),
  })
  .partial()
  .strict();

const audienceParam = z.enum(FEATURE_CLASSES, { error: releaseRouteMessages.audience }).optional();

const intersect = (a: readonly FeatureClass[] | undefined, b: readonly FeatureClass[]) =>
  a ? a.filter((c) => b.includes(c)) : [...b];

/** The classes a caller may be shown at all: a BA sees what is meant for BAs and for everyone. */
function callerClasses(res: Response): readonly FeatureClass[] | undefined {
  const p = res.locals['principal'] as Principal | undefined;
  return p && p.roles.some(isBaRole) ? classesFor('ba') : undefined;
}

const notFound = () => new DomainError('not_found', releaseMessages.notFound);

export function releaseRoutes(deps: ReleaseDeps): Router {
  const router = Router();
  const admin = requireAuth({ roles: ['MLL-ADMIN'], app: 'console' });

  async function run(req: Request, res: Response, id: string, verb: string, command: ReleaseCommand): Promise<void> {
    const p = principalOf(res);
    const { requestId, correlationId, key, fingerprint } = requestIds(req);
    if (key && fingerprint) await bindIdempotencyKey(deps.pool, p.userId, key, fingerprint);
    const result = await handleCommand(deps.store, releaseStreamId(id), releaseDecider, command, {
      // A retried request (same Idempotency-Key) finds its events and appends nothing twice.
      commandId: `release:${id}:${verb}:${p.userId}:${requestId}`,
      actor: { userId: p.userId, role: 'MLL-ADMIN', name: p.name },
      at: new Date().toISOString(),
      companyCode: null,
      correlationId,
      causationId: null,
      workflowId: null,
      requestId,
    });
    // The list the admin returns to, and the public page, show the write.
    if (result.lastGlobalPosition > 0)
      await waitForProjections(deps.pool, result.lastGlobalPosition, {
        timeoutMs: deps.projectionWaitMs ?? 2000,
        names: ['releases'],
      });
  }

  async function current(id: string): Promise<ReleaseRow> {
    const row = await getRelease(deps.pool, id);
    if (!row) throw notFound();
    return row;
  }

  router.get('/releases', publicRoute(), async (req, res) => {
    const audience = audienceParam.safeParse(req.query['featureClass']);
    if (!audience.success)
      throw new DomainError('validation', releaseRouteMessages.audience, {
        featureClass: releaseRouteMessages.audience,
      });
    const { sort, range, filter } = parseListQuery(req.query, {
      sortFields: SORT_FIELDS,
      defaultSort: { field: 'releasedOn', order: 'DESC' },
      filter: filterSchema,
      // The spec's call (get-release-info?featureClass=) takes no paging: one page holds every release.
      defaultPageSize: 100,
    });
    let classes = callerClasses(res);
    for (const a of [audience.data, filter.audience]) if (a) classes = intersect(classes, classesFor(a));
    if (filter.featureClass) classes = intersect(classes, [filter.featureClass]);
    const ids = filter.id === undefined ? undefined : Array.isArray(filter.id) ? filter.id : [filter.id];
    const { rows, total } = await listReleases(deps.pool, {
      classes,
      deviceType: filter.deviceType,
      ids,
      sort,
      range,
    });
    sendList(res, 'releases', range, rows, total);
  });

  // react-admin's getOne (edit form): the id is "<version>-<device>".
  router.get('/releases/:id', publicRoute(), async (req, res) => {
    const parts = parseReleaseId(String(req.params['id']));
    if (!parts) throw notFound();
    res.json(await current(releaseIdOf(parts.versionReleased, parts.deviceType)));
  });

  // The public release page (spec 000 §2: /newFeaturesList/:versionReleased/:deviceType).
  router.get('/releases/:versionReleased/:deviceType', publicRoute(), async (req, res) => {
    const parts = parseReleaseId(`${String(req.params['versionReleased'])}-${String(req.params['deviceType'])}`);
    if (!parts) throw notFound();
    res.json(await current(releaseIdOf(parts.versionReleased, parts.deviceType)));
  });

  router.post('/releases', admin, async (req, res) => {
    const parsed = parseRelease(req.body);
    if ('errors' in parsed) throw new DomainError('validation', releaseMessages.invalid, parsed.errors);
    const id = releaseIdOf(parsed.data.versionReleased, parsed.data.deviceType);
    await run(req, res, id, 'publish', { type: 'PublishRelease', input: parsed.data });
    res.status(201).json(await current(id));
  });

  router.put('/releases/:id', admin, async (req, res) => {
    const parts = parseReleaseId(String(req.params['id']));
    if (!parts) throw notFound();
    const id = releaseIdOf(parts.versionReleased, parts.deviceType);
    // The form sends the whole record back: its identity must be the one in the path.
    const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<string, unknown>;
    const sentVersion = typeof body['versionReleased'] === 'string' ? body['versionReleased'].trim() : undefined;
    const sentDevice = body['deviceType'];
    const renamed =
      (sentVersion !== undefined && sentVersion !== parts.versionReleased) ||
      (sentDevice !== undefined && sentDevice !== parts.deviceType);
    if (renamed)
      throw new DomainError('validation', releaseMessages.identityFixed, {
        versionReleased: releaseMessages.identityFixed,
      });
    await run(req, res, id, 'change', { type: 'ChangeRelease', id, input: body });
    res.json(await current(id));
  });

  router.post('/releases/:id/withdraw', admin, async (req, res) => {
    const parts = parseReleaseId(String(req.params['id']));
    if (!parts) throw notFound();
    const id = releaseIdOf(parts.versionReleased, parts.deviceType);
    await run(req, res, id, 'withdraw', { type: 'WithdrawRelease', id });
    res.json({ id, message: releaseRouteMessages.withdrawn });
  });

  return router;
}
