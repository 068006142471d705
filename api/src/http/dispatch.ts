import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';

/**
 * The capability routers of /api behind one dispatch table keyed by the first path segment.
 *
 * Mounted one after another, every /api request walked the ~35 routers in order, and each router matched the
 * request against every one of its routes (a regular expression each) before giving up: a request for a
 * router near the end paid for hundreds of failed matches, the largest cost of a trivial request in the CPU
 * profile (issue 12). Here a request only enters the routers that have a route (or a mounted router) whose
 * first segment is the request's, plus those that answer under any first segment (a route or middleware
 * starting with a parameter, a pattern, or router-level middleware), in their original order; inside a
 * router Express matches exactly as before, so every path, method and 404 stays the same.
 *
 * The table is read off the routers' stacks when the first request arrives (the capability modules build
 * their routers synchronously, before the app serves anything). `stack` lists the routers' layers like a
 * router's own stack does, so whatever walks the app's routes (tests/integration/route-access) still finds
 * every route.
 */
type Layer = {
  route?: { path: unknown };
  handle: { stack?: Layer[] };
  rawPath?: unknown;
};

const ANY = Symbol('any first segment');

/** The first path segment a path registered on a router answers under (lower case: routing ignores case). */
function firstSegmentOf(path: unknown): string | typeof ANY {
  if (typeof path !== 'string' || !path.startsWith('/')) return ANY;
  const segment = path.slice(1).split('/')[0]!;
  // Parameters (:id), wildcards (*rest), optional groups ({...}) and escapes can match more than one text.
  if (/[:*{}()\\?+[\]]/.test(segment)) return ANY;
  return segment.toLowerCase();
}

/** Every first segment a router answers under, or ANY. */
function segmentsOf(stack: readonly Layer[]): Set<string> | typeof ANY {
  const segments = new Set<string>();
  for (const layer of stack) {
    const paths = layer.route ? layer.route.path : (layer.rawPath ?? '/');
    for (const path of Array.isArray(paths) ? paths : [paths]) {
      // A router mounted at '/' inside this one: its own routes decide.
      if (!layer.route && path === '/' && Array.isArray(layer.handle.stack)) {
        const inner = segmentsOf(layer.handle.stack);
        if (inner === ANY) return ANY;
        for (const s of inner) segments.add(s);
        continue;
      }
      // Middleware at '/' (e.g. router.use(someCheck)) sees every request that enters the router.
      const segment = !layer.route && path === '/' ? ANY : firstSegmentOf(path);
      if (segment === ANY) return ANY;
      segments.add(segment);
    }
  }
  return segments;
}

export type Dispatch = RequestHandler & { stack: Layer[] };

export function dispatchBySegment(routers: readonly Router[]): Dispatch {
  let table: Map<string, Router[]> | null = null;
  let everywhere: Router[] = [];
  const build = () => {
    const bySegment = routers.map((router) => {
      const segments = segmentsOf((router as unknown as { stack: Layer[] }).stack);
      return { router, segments: segments === ANY ? null : segments };
    });
    everywhere = bySegment.filter((r) => r.segments === null).map((r) => r.router);
    const map = new Map<string, Router[]>();
    const all = new Set(bySegment.flatMap((r) => [...(r.segments ?? [])]));
    // Each segment's routers in mount order, those that take any segment included where they were mounted.
    for (const segment of all)
      map.set(
        segment,
        bySegment.filter((r) => r.segments === null || r.segments.has(segment)).map((r) => r.router),
      );
    return map;
  };

  const dispatch = (req: Request, res: Response, next: NextFunction) => {
    table ??= build();
    const path = req.path;
    const end = path.indexOf('/', 1);
    const segment = (end < 0 ? path.slice(1) : path.slice(1, end)).toLowerCase();
    const candidates = table.get(segment) ?? everywhere;
    let i = 0;
    const step = (err?: unknown): void => {
      // 'router' leaves that router only; anything else passed on is an error for the handlers after us.
      if (err !== undefined && err !== null && err !== 'router') return next(err);
      const router = candidates[i++];
      if (!router) return next();
      router(req, res, step);
    };
    step();
  };
  return Object.assign(dispatch, {
    stack: routers.map((router) => ({ handle: router as unknown as { stack?: Layer[] }, rawPath: '/' })),
  });
}
