import request from 'supertest';
import {
  duplicateMessage,
  masterDefinition,
  MASTERS,
  type MasterDefinition,
} from '../../../domain/src/masters/definitions';
import { sampleValues } from '../../../domain/src/masters/testing';
import { messages } from '../../../domain/src/validation/fields';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { addUser, sessionOf } from '../users/testing';

/**
 * The Masters API over HTTP, one behaviour at a time over every master: create and read back, duplicates
 * refused with nothing written, edits recorded as before/after, deactivation hiding the item from BAs,
 * writes for MLL-ADMIN and MDM on the console only, references to unknown or inactive items refused.
 */
jest.setTimeout(600_000);

type Auth = { Authorization: string };
let h: ApiHarness;
let admin: Auth;
let mdm: Auth;
let procurement: Auth;
let auditor: Auth;
let ba: Auth;
/** Referenced items every sample points at (a state, a service), created through the API. */
const refIds: Record<string, number> = {};

const eventCount = async () => Number((await h.db.pool.query(`SELECT count(*) AS n FROM events`)).rows[0].n);
const url = (def: MasterDefinition, id?: number | string) => `/api/${def.resource}${id === undefined ? '' : `/${encodeURIComponent(String(id))}`}`;
const listQuery = (filter: Record<string, unknown>, extra = '') =>
  `?filter=${encodeURIComponent(JSON.stringify(filter))}${extra}`;
const displayOfBody = (def: MasterDefinition, body: Record<string, unknown>) => String(body[def.display]);

/** The enum field that is the master's whole unique key (GST types, RFP types): its codes are a fixed set. */
const fixedCodeOf = (def: MasterDefinition) =>
  def.unique.length === 1 ? def.fields.find((f) => f.name === def.unique[0] && f.kind === 'enum') : undefined;

/**
 * A new item of the master. Masters with a fixed set of codes may already hold all of them: then the test
 * works on the existing item with the first code.
 */
async function itemOf(def: MasterDefinition, n: number): Promise<{ id: number | string; values: Record<string, unknown>; created: boolean }> {
  const values = sampleValues(def, n, refIds);
  const fixed = fixedCodeOf(def);
  if (fixed) {
    const existing = await request(h.app).get(`${url(def)}${listQuery({})}`).set(admin);
    const taken = new Set((existing.body as Record<string, unknown>[]).map((r) => r[fixed.name]));
    const free = fixed.options!.find((o) => !taken.has(o.id));
    if (!free) {
      const item = (existing.body as Record<string, unknown>[]).find((r) => r[fixed.name] === fixed.options![0]!.id)!;
      const { id, status: _s, updatedAt: _u, ...rest } = item;
      return { id: id as number, values: rest, created: false };
    }
    values[fixed.name] = free.id;
  }
  const res = await request(h.app).post(url(def)).set(admin).send(values);
  expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: expect.objectContaining({ message: `${def.singular} saved successfully` }) });
  return { id: (res.body as { id: number | string }).id, values, created: true };
}

beforeAll(async () => {
  h = await startApiHarness('api-masters', { projectionWaitMs: 5000 });
  admin = (await sessionOf(h, await addUser(h, { email: 'admin@masters.test', name: 'Anil Admin', roles: ['MLL-ADMIN'] }))).auth;
  mdm = (await sessionOf(h, await addUser(h, { email: 'mdm@masters.test', name: 'Meera MDM', roles: ['MDM'] }))).auth;
  procurement = (await sessionOf(h, await addUser(h, { email: 'proc@masters.test', roles: ['MLL Procurement'] }))).auth;
  auditor = (await sessionOf(h, await addUser(h, { email: 'audit@masters.test', roles: ['Auditor'] }))).auth;
  ba = (await sessionOf(h, await addUser(h, { email: 'ba@masters.test', roles: ['BA Admin'], baId: 'ba-masters' }))).auth;
  // A hire type of its own: the reference data already holds a required-flags row for every pair of its own.
  for (const resource of ['states', 'services', 'vehicle-hire-types']) {
    const def = masterDefinition(resource);
    const res = await request(h.app).post(url(def)).set(admin).send(sampleValues(def, 1000, refIds));
    expect(res.status).toBe(201);
    refIds[resource] = (res.body as { id: number }).id;
  }
});

afterAll(async () => {
  await h?.stop();
});

const each = MASTERS.map((def, i) => [def.resource, def, 10 + i] as const);

describe.each(each)('%s', (_resource, def, n) => {
  let item: { id: number | string; values: Record<string, unknown>; created: boolean };

  it('creates an item that get and list (with q) then show, with an id from 100000 up', async () => {
    item = await itemOf(def, n);
    if (item.created && def.idKind === 'int') expect(item.id).toBeGreaterThanOrEqual(100000);
    const one = await request(h.app).get(url(def, item.id)).set(admin);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ ...item.values, ...one.body, id: item.id, status: 'active', updatedAt: expect.any(String) });
    for (const [k, v] of Object.entries(item.values)) {
      if (typeof v === 'string' && def.fields.find((f) => f.name === k)?.upperCase) continue;
      expect({ [k]: one.body[k] }).toEqual({ [k]: Array.isArray(v) ? [...v].sort() : v });
    }
    const q = displayOfBody(def, one.body as Record<string, unknown>);
    const list = await request(h.app).get(`${url(def)}${listQuery({ q })}`).set(ba);
    expect(list.status).toBe(200);
    expect((list.body as { id: unknown }[]).map((r) => r.id)).toContain(item.id);
    expect(list.headers['content-range']).toMatch(new RegExp(`^${def.resource} (0-\\d+|\\*)/\\d+$`));
  });

  it('refuses a duplicate with 409 naming the key, and writes nothing', async () => {
    const before = await eventCount();
    const res = await request(h.app).post(url(def)).set(admin).send(item.values);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(duplicateMessage(def, def.unique));
    expect(await eventCount()).toBe(before);
  });

  it('refuses invalid values with field messages and writes nothing', async () => {
    const before = await eventCount();
    const required = def.fields.find((f) => f.required)!;
    const { [required.name]: _dropped, ...rest } = sampleValues(def, n + 700, refIds);
    const res = await request(h.app).post(url(def)).set(admin).send(rest);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual([required.name]);
    const text = def.fields.find((f) => f.kind === 'text' || f.kind === 'longtext');
    if (text) {
      const bad = await request(h.app).post(url(def)).set(admin).send({ ...sampleValues(def, n + 701, refIds), [text.name]: '=1+2' });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual({ [text.name]: messages.leadingCharacter });
    }
    expect(await eventCount()).toBe(before);
  });

  it('records an edit as before/after of the changed field only, with the actor, readable by auditors', async () => {
    const edited = sampleValues(def, n + 500, refIds)[def.display];
    const current = (await request(h.app).get(url(def, item.id)).set(admin)).body as Record<string, unknown>;
    const res = await request(h.app).put(url(def, item.id)).set(mdm).send({ ...current, [def.display]: edited });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: item.id, [def.display]: edited, message: `${def.singular} saved successfully` });
    const history = await request(h.app).get(`${url(def, item.id)}/events`).set(auditor);
    expect(history.status).toBe(200);
    const last = (history.body as { type: string; data: Record<string, unknown>; actor: { name: string } }[]).at(-1)!;
    expect(last).toMatchObject({
      type: 'MasterItemChanged',
      data: { master: def.resource, id: item.id, before: { [def.display]: current[def.display] }, after: { [def.display]: edited } },
      actor: { name: 'Meera MDM', role: 'MDM' },
    });
    // The same values again change nothing.
    const before = await eventCount();
    expect((await request(h.app).put(url(def, item.id)).set(admin).send({ ...current, [def.display]: edited })).status).toBe(200);
    expect(await eventCount()).toBe(before);
  });

  it('hides a deactivated item from BAs (list and by id) but not from staff, and shows it again once active', async () => {
    const off = await request(h.app).put(url(def, item.id)).set(admin).send({ status: 'inactive' });
    expect(off.status).toBe(200);
    expect(off.body.status).toBe('inactive');
    const baList = await request(h.app).get(`${url(def)}${listQuery({ id: [item.id] })}`).set(ba);
    expect(baList.body).toEqual([]);
    expect((await request(h.app).get(`${url(def)}${listQuery({ status: 'inactive' })}`).set(ba)).body).toEqual([]);
    expect((await request(h.app).get(url(def, item.id)).set(ba)).status).toBe(404);
    const staff = await request(h.app).get(`${url(def)}${listQuery({ status: 'inactive', id: [item.id] })}`).set(admin);
    expect((staff.body as { id: unknown }[]).map((r) => r.id)).toEqual([item.id]);
    expect((await request(h.app).get(url(def, item.id)).set(procurement)).status).toBe(200);

    const on = await request(h.app).put(url(def, item.id)).set(admin).send({ status: 'active' });
    expect(on.body.status).toBe('active');
    expect((await request(h.app).get(url(def, item.id)).set(ba)).status).toBe(200);
  });

  it('lets only MLL-ADMIN and MDM write, on the console', async () => {
    const before = await eventCount();
    const values = sampleValues(def, n + 900, refIds);
    for (const who of [ba, procurement, auditor]) {
      expect((await request(h.app).post(url(def)).set(who).send(values)).status).toBe(403);
      expect((await request(h.app).put(url(def, item.id)).set(who).send({ status: 'inactive' })).status).toBe(403);
    }
    expect((await request(h.app).post(url(def)).send(values)).status).toBe(401);
    expect(await eventCount()).toBe(before);
    expect((await request(h.app).get(`${url(def, item.id)}/events`).set(ba)).status).toBe(403);
  });
});

describe('references and lists', () => {
  const cities = masterDefinition('cities');
  const states = masterDefinition('states');

  it('refuses a reference to an unknown or inactive item', async () => {
    const before = await eventCount();
    const unknown = await request(h.app).post(url(cities)).set(admin).send({ name: 'Nowhere', stateId: 999_999 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual({ stateId: 'Please select a valid State' });

    const state = await request(h.app).post(url(states)).set(admin).send(sampleValues(states, 77));
    expect(state.status).toBe(201);
    await request(h.app).put(url(states, state.body.id)).set(admin).send({ status: 'inactive' });
    const inactive = await request(h.app).post(url(cities)).set(admin).send({ name: 'Dormant Pur', stateId: state.body.id });
    expect(inactive.status).toBe(400);
    expect(inactive.body.errors).toEqual({ stateId: 'Please select a valid State' });
    expect(await eventCount()).toBe(before + 2);
  });

  it('filters by reference, searches case-insensitively, sorts by any field and pages 100 rows by default', async () => {
    const stateId = refIds['states']!;
    const names = ['Zeta Pur', 'alpha Nagar', 'Beta Nagar'];
    for (const name of names) expect((await request(h.app).post(url(cities)).set(admin).send({ name, stateId })).status).toBe(201);
    const inState = await request(h.app).get(`${url(cities)}${listQuery({ stateId })}`).set(ba);
    expect((inState.body as { name: string }[]).map((c) => c.name)).toEqual(
      expect.arrayContaining(['alpha Nagar', 'Beta Nagar', 'Zeta Pur']),
    );
    const sorted = (inState.body as { name: string }[]).map((c) => c.name.toLowerCase());
    expect(sorted).toEqual([...sorted].sort());
    const searched = await request(h.app).get(`${url(cities)}${listQuery({ stateId, q: 'NAGAR' })}&sort=${encodeURIComponent('["name","DESC"]')}`).set(ba);
    expect((searched.body as { name: string }[]).map((c) => c.name)).toEqual(['Beta Nagar', 'alpha Nagar']);

    const all = await request(h.app).get(url(cities)).set(ba);
    expect(all.status).toBe(200);
    const total = Number(/\/(\d+)$/.exec(String(all.headers['content-range']))![1]);
    expect(all.body).toHaveLength(Math.min(100, total));
    expect((await request(h.app).get(`${url(cities)}?sort=${encodeURIComponent('["nope","ASC"]')}`).set(ba)).status).toBe(400);
    expect((await request(h.app).get(`${url(cities)}${listQuery({ planet: 1 })}`).set(ba)).status).toBe(400);
  });

  it('answers the RFP properties of one RFP type and the required flags of one pair (spec 001 §7)', async () => {
    const types = masterDefinition('rfp-types');
    const listed = async () => (await request(h.app).get(`${url(types)}${listQuery({})}`).set(admin)).body as { id: number; code: string }[];
    for (const o of types.fields.find((f) => f.name === 'code')!.options!) {
      if (!(await listed()).some((t) => t.code === o.id)) {
        expect((await request(h.app).post(url(types)).set(admin).send({ code: o.id, name: `Pair ${o.name}` })).status).toBe(201);
      }
    }
    const idOf = new Map((await listed()).map((t) => [t.code, t.id]));
    const [standard, single] = [idOf.get('standard')!, idOf.get('single')!];

    const properties = masterDefinition('rfp-properties');
    const property = (key: string, rfpTypeIds: number[], columnOrder: number) =>
      request(h.app).post(url(properties)).set(admin).send({ key, label: `Column ${key}`, owner: 'ba', valueType: 'number', columnOrder, rfpTypeIds });
    expect((await property('everyLaneRate', [standard, single], 1)).status).toBe(201);
    expect((await property('networkOnlyRate', [standard], 2)).status).toBe(201);
    const byType = async (id: number) =>
      ((await request(h.app).get(`${url(properties)}${listQuery({ rfpTypeIds: id })}`).set(ba)).body as { key: string }[]).map((p) => p.key);
    expect(await byType(single)).toContain('everyLaneRate');
    expect(await byType(single)).not.toContain('networkOnlyRate');
    expect(await byType(standard)).toEqual(expect.arrayContaining(['everyLaneRate', 'networkOnlyRate']));

    const hire = await request(h.app).post(url(masterDefinition('vehicle-hire-types'))).set(admin).send({ name: 'Pair Hire', code: 'PAIRHIRE' });
    expect(hire.status).toBe(201);
    const flags = masterDefinition('rfp-required-flags');
    const flag = (rfpTypeId: number, isRequiredByBa: boolean) =>
      request(h.app).post(url(flags)).set(admin).send({ hireTypeId: hire.body.id, rfpTypeId, isRequiredByMll: true, isRequiredByBa, description: 'Pair test' });
    expect((await flag(standard, false)).status).toBe(201);
    expect((await flag(single, true)).status).toBe(201);
    const pair = await request(h.app).get(`${url(flags)}${listQuery({ hireTypeId: hire.body.id, rfpTypeId: single })}`).set(ba);
    expect((pair.body as Record<string, unknown>[]).map(({ hireTypeId, rfpTypeId, isRequiredByMll, isRequiredByBa }) => ({ hireTypeId, rfpTypeId, isRequiredByMll, isRequiredByBa }))).toEqual([
      { hireTypeId: hire.body.id, rfpTypeId: single, isRequiredByMll: true, isRequiredByBa: true },
    ]);
    const again = await flag(single, false);
    expect({ status: again.status, message: again.body.message }).toEqual({
      status: 409,
      message: 'An RFP Required Flag with this Vehicle Hire Type and RFP Type already exists',
    });
  });

  it('keeps companies readable without sign-in', async () => {
    const res = await request(h.app).get('/api/companies');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect((await request(h.app).get('/api/states')).status).toBe(401);
  });

  it('answers the counts of every master for the dashboard', async () => {
    const res = await request(h.app).get('/api/masters/counts').set(mdm);
    expect(res.status).toBe(200);
    expect((res.body as { master: string }[]).map((c) => c.master)).toEqual(MASTERS.map((d) => d.resource));
    const cityCount = (res.body as { master: string; label: string; active: number; inactive: number }[]).find((c) => c.master === 'cities')!;
    expect(cityCount.label).toBe('Cities');
    const active = await request(h.app).get(`${url(cities)}${listQuery({ status: 'active' })}`).set(admin);
    expect(cityCount.active).toBe(Number(/\/(\d+)$/.exec(String(active.headers['content-range']))![1]));
    expect((await request(h.app).get('/api/masters/counts').set(ba)).status).toBe(403);
  });

  it('answers a retried create (same Idempotency-Key) with the same item and appends nothing twice', async () => {
    const vehicle = masterDefinition('vehicle-types');
    const first = await request(h.app).post(url(vehicle)).set(admin).set('Idempotency-Key', 'vt-retry-1').send({ name: '53 ft Idempotent Trailer' });
    expect(first.status).toBe(201);
    const before = await eventCount();
    const again = await request(h.app).post(url(vehicle)).set(admin).set('Idempotency-Key', 'vt-retry-1').send({ name: '53 ft Idempotent Trailer' });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(await eventCount()).toBe(before);
  });
});
