import { readFileSync } from 'node:fs';
import express from 'express';

/**
 * A bare Express app for the HTTP baselines of `npm run bench` (its own process, like the api): GET /<name>
 * answers with `res.json` the body stored under that name in the JSON file BARE_BODIES_FILE, so a route of
 * the api is compared with Express serialising the very same body and nothing else (no auth, no SQL).
 */
const bodies = JSON.parse(readFileSync(process.env['BARE_BODIES_FILE'] ?? '', 'utf8')) as Record<string, unknown>;
const app = express();
app.disable('x-powered-by');
app.get('/:name', (req, res) => {
  const body = bodies[req.params.name];
  if (body === undefined) res.status(404).end();
  else res.json(body);
});
app.listen(Number(process.env['PORT']), '127.0.0.1');
