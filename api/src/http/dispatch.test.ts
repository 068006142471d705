import express, { Router } from 'express';
import request from 'supertest';
import { dispatchBySegment } from './dispatch';

/** The dispatch table must answer exactly as the same routers mounted one after another would. */
function routers(calls: string[]) {
  const notes = Router();
  notes.get('/notes', (_req, res) => res.json('notes list'));
  notes.get('/notes/:id', (req, res) => res.json(`note ${req.params['id']}`));
  const byParam = Router();
  // A first segment that is a parameter: this router must see every request.
  byParam.get('/:kind/count', (req, res, next) => (req.params['kind'] === 'things' ? res.json('things count') : next()));
  const guarded = Router();
  // Router-level middleware: every request that enters the router passes it.
  guarded.use((_req, _res, next) => {
    calls.push('guard');
    next();
  });
  guarded.get('/secret', (_req, res) => res.json('secret'));
  const nested = Router();
  const inner = Router();
  inner.post('/items', (_req, res) => res.status(201).json('item'));
  inner.get('/fails', () => {
    throw new Error('boom');
  });
  nested.use(inner);
  const leaves = Router();
  leaves.get('/notes/special', (_req, res) => res.json('never: /notes/:id answers first'));
  leaves.get('/leave', (_req, res, next) => next('router'));
  const after = Router();
  after.get('/leave', (_req, res) => res.json('after the router left'));
  return [notes, byParam, guarded, nested, leaves, after];
}

function appWith(mount: (api: Router, list: Router[]) => void, calls: string[]) {
  const app = express();
  const api = Router();
  mount(api, routers(calls));
  api.use((_req, res) => res.status(404).json('not found'));
  app.use('/api', api);
  app.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(500).json(err.message);
  });
  return app;
}

const cases: [string, string][] = [
  ['GET', '/api/notes'],
  ['GET', '/api/NOTES/7'],
  ['GET', '/api/notes/special'],
  ['GET', '/api/things/count'],
  ['GET', '/api/others/count'],
  ['GET', '/api/secret'],
  ['POST', '/api/items'],
  ['GET', '/api/items'],
  ['GET', '/api/fails'],
  ['GET', '/api/leave'],
  ['GET', '/api/unknown'],
  ['GET', '/api'],
  ['HEAD', '/api/notes'],
];

describe('dispatchBySegment', () => {
  test.each(cases)('%s %s answers as with the routers mounted in order', async (method, path) => {
    const linearCalls: string[] = [];
    const dispatchedCalls: string[] = [];
    const linear = appWith((api, list) => list.forEach((r) => api.use(r)), linearCalls);
    const dispatched = appWith((api, list) => api.use(dispatchBySegment(list)), dispatchedCalls);
    const send = (app: express.Express) => request(app)[method.toLowerCase() as 'get'](path);
    const [a, b] = [await send(linear), await send(dispatched)];
    expect({ status: b.status, body: b.body }).toEqual({ status: a.status, body: a.body });
    // Router-level middleware runs for the requests that reach its router, as before.
    expect(dispatchedCalls).toEqual(linearCalls);
  });

  test('exposes the routers’ layers, so walkers of the app still find every route', () => {
    const list = routers([]);
    const dispatch = dispatchBySegment(list);
    expect(dispatch.stack.map((l) => l.handle)).toEqual(list);
  });
});
