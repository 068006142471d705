import { TEMPLATE_NAMES, TEMPLATES } from '../../../../platform/src/notifications/templates';
import { MASTERS, masterDefinition, masterSchema, normaliseKeyPart, uniqueKeysOf } from '../definitions';
import { REFERENCE_DATA, isReferenceDataEvent, referenceCommandId } from '.';
import { CITIES } from './cities';
import { EMAIL_TEMPLATES } from './email-templates';
import { GST_TYPES } from './gst-types';
import { STATES } from './states';
import { ZONES } from './zones';

const rowsOf = (resource: string) => REFERENCE_DATA.find((m) => m.resource === resource)?.rows ?? [];
const valuesOf = ({ id: _id, ...values }: { id: number | string }) => values;

describe('the reference data', () => {
  it('has rows for every master, each master once', () => {
    expect(REFERENCE_DATA.map((m) => m.resource).sort()).toEqual(MASTERS.map((d) => d.resource).sort());
  });

  describe.each(REFERENCE_DATA.map((m) => [m.resource, m] as const))('%s', (resource, { rows }) => {
    const def = masterDefinition(resource);

    it('holds rows, each valid under the master’s own rule and stored as written', () => {
      expect(rows.length).toBeGreaterThan(0);
      const schema = masterSchema(def, 'create');
      for (const row of rows) {
        const parsed = schema.safeParse(valuesOf(row));
        expect({ id: row.id, issues: parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) }).toEqual({ id: row.id, issues: [] });
        if (!parsed.success) continue;
        const { status, ...values } = parsed.data as Record<string, unknown>;
        expect(status).toBe('active');
        expect(values).toEqual(Object.fromEntries(def.fields.map((f) => [f.name, (row as Record<string, unknown>)[f.name] ?? null])));
      }
    });

    it('gives every row its own stable id, below the ids the API hands out (100000 on)', () => {
      const ids = rows.map((r) => r.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const row of rows) {
        if (def.idKind === 'code') expect(row.id).toBe((row as Record<string, unknown>)[def.unique[0]!]);
        else expect(Number.isInteger(row.id) && (row.id as number) > 0 && (row.id as number) < 100_000).toBe(true);
      }
    });

    it('keeps every unique key unique', () => {
      for (const key of uniqueKeysOf(def)) {
        const seen = rows.map((r) => key.map((n) => normaliseKeyPart((r as Record<string, unknown>)[n])).join('|'));
        expect(seen.filter((k, i) => seen.indexOf(k) !== i)).toEqual([]);
      }
    });

    it('refers only to rows of masters created before it', () => {
      const before = REFERENCE_DATA.slice(0, REFERENCE_DATA.findIndex((m) => m.resource === resource)).map((m) => m.resource);
      for (const field of def.fields.filter((f) => f.kind === 'ref' || f.kind === 'refs')) {
        expect(before).toContain(field.ref);
        const known = new Set(rowsOf(field.ref!).map((r) => r.id));
        for (const row of rows) {
          const value = (row as Record<string, unknown>)[field.name];
          const ids = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
          expect(ids.filter((id) => !known.has(id as number))).toEqual([]);
        }
      }
    });
  });

  it('has all 28 states and 8 union territories, each with its GST state code as id', () => {
    const states = STATES;
    expect(states).toHaveLength(36);
    expect(states.filter((s) => s.isUnionTerritory)).toHaveLength(8);
    for (const s of states) expect(s.gstStateCode).toBe(String(s.id).padStart(2, '0'));
    expect(Object.fromEntries(states.map((s) => [s.id, s.name]))).toMatchObject({
      7: 'Delhi',
      9: 'Uttar Pradesh',
      19: 'West Bengal',
      24: 'Gujarat',
      26: 'Dadra and Nagar Haveli and Daman and Diu',
      27: 'Maharashtra',
      29: 'Karnataka',
      33: 'Tamil Nadu',
      36: 'Telangana',
      37: 'Andhra Pradesh',
      38: 'Ladakh',
    });
    expect(states.map((s) => s.id)).not.toEqual(expect.arrayContaining([25]));
    expect(states.map((s) => s.id)).not.toEqual(expect.arrayContaining([97]));
  });

  it('has at least 300 cities over every state, ids from the state, and the ids events already store', () => {
    const cities = CITIES;
    expect(cities.length).toBeGreaterThanOrEqual(300);
    for (const c of cities) expect(Math.floor(Number(c.id) / 100)).toBe(c.stateId);
    expect(new Set(cities.map((c) => c.stateId))).toEqual(new Set(rowsOf('states').map((s) => s.id)));
    const byId = Object.fromEntries(cities.map((c) => [c.id, c.name]));
    expect(byId).toMatchObject({
      2701: 'Mumbai',
      2702: 'Pune',
      2703: 'Nagpur',
      2901: 'Bengaluru',
      2902: 'Mysuru',
      3301: 'Chennai',
      3302: 'Coimbatore',
      701: 'New Delhi',
      2401: 'Ahmedabad',
      2402: 'Surat',
      1901: 'Kolkata',
    });
  });

  it('keeps the ids of the services, departments and companies events already store', () => {
    expect(rowsOf('services').slice(0, 4)).toEqual([
      expect.objectContaining({ id: 1, name: 'Transportation', slug: 'transportation' }),
      expect.objectContaining({ id: 2, name: 'Warehousing', slug: 'warehousing' }),
      expect.objectContaining({ id: 3, name: 'Freight Forwarding', slug: 'freight-forwarding' }),
      expect.objectContaining({ id: 4, name: 'Last Mile Delivery', slug: 'last-mile-delivery' }),
    ]);
    expect(rowsOf('departments').map((d) => [d.id, d.name])).toEqual([
      [1, 'Operations'],
      [2, 'Accounts'],
      [3, 'Finance'],
      [4, 'Sales'],
      [5, 'Management'],
      [6, 'Fleet'],
      [7, 'Compliance'],
      [8, 'IT'],
    ]);
    expect(rowsOf('companies')).toEqual([
      { id: '1000', companyCode: '1000', name: 'MLL Logistics' },
      { id: '2000', companyCode: '2000', name: 'MLL Freight Services' },
    ]);
  });

  it('puts every state in exactly one zone', () => {
    const zoned = ZONES.flatMap((z) => z.stateIds).sort((a, b) => a - b);
    expect(zoned).toEqual(STATES.map((s) => s.id as number).sort((a, b) => a - b));
  });

  it('labels the GST types as the spec does', () => {
    expect(GST_TYPES.map((g) => [g.code, g.name])).toEqual([
      ['', 'GST Registered'],
      ['0', 'Not Registered'],
      ['1', 'Composition Dealer'],
      ['2', 'Registered with RCM'],
      ['3', 'Special Economic Zone'],
    ]);
  });

  it('holds the e-mails the outbox sends, word for word', () => {
    const rows = EMAIL_TEMPLATES;
    expect(rows.map((r) => r.templateKey)).toEqual([...TEMPLATE_NAMES]);
    for (const r of rows) {
      const t = TEMPLATES[r.templateKey as (typeof TEMPLATE_NAMES)[number]];
      expect({ key: r.templateKey, subject: r.subject, body: r.body }).toEqual({ key: r.templateKey, subject: t.email.subject, body: t.email.text });
    }
  });

  it('tells its own events from everyone else’s', () => {
    const actor = (userId: string) => ({ actor: { userId } });
    expect(isReferenceDataEvent({ streamId: 'master-cities-2701', metadata: actor('reference-data') })).toBe(true);
    expect(isReferenceDataEvent({ streamId: 'master-cities-2701', metadata: actor('someone') })).toBe(false);
    expect(isReferenceDataEvent({ streamId: 'ba-1', metadata: actor('reference-data') })).toBe(false);
    expect(referenceCommandId('cities', 2701)).toBe('reference-data:cities:2701');
  });
});
