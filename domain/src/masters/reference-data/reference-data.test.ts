import { TEMPLATE_NAMES, TEMPLATES } from '../../../../platform/src/notifications/templates';
import { MASTERS, RFP_TYPE_OPTIONS, masterDefinition, masterSchema, normaliseKeyPart, uniqueKeysOf } from '../definitions';
import { optionListOf } from '../option-list';
import { REFERENCE_DATA, isReferenceDataEvent, referenceCommandId } from '.';
import { CITIES } from './cities';
import { EMAIL_TEMPLATES } from './email-templates';
import { GST_TYPES } from './gst-types';
import { RFP_PROPERTIES } from './rfp-properties';
import { RFP_REQUIRED_FLAGS } from './rfp-required-flags';
import { RFP_TYPE_IDS, RFP_TYPES } from './rfp-types';
import { STATES } from './states';
import { VEHICLE_HIRE_TYPE_IDS, VEHICLE_HIRE_TYPES } from './vehicle-hire-types';
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

describe('the RFP reference data', () => {
  const propertiesOf = (code: keyof typeof RFP_TYPE_IDS) => RFP_PROPERTIES.filter((p) => p.rfpTypeIds.includes(RFP_TYPE_IDS[code]));

  it('has one RFP type per code of the spec, under the ids other rows refer to', () => {
    expect(RFP_TYPES.map((t) => [t.id, t.code, t.name])).toEqual([
      [1, 'standard', 'Standard'],
      [2, 'non-standard', 'Non-standard'],
      [3, 'single', 'Single'],
    ]);
    expect(RFP_TYPES.map((t) => t.code)).toEqual(RFP_TYPE_OPTIONS.map((o) => o.id));
    for (const t of RFP_TYPES) expect(RFP_TYPE_IDS[t.code]).toBe(t.id);
  });

  it('has the vehicle hire types under the ids the required flags refer to', () => {
    expect(VEHICLE_HIRE_TYPES.map((h) => [h.id, h.name])).toEqual([
      [VEHICLE_HIRE_TYPE_IDS.dedicated, 'Dedicated'],
      [VEHICLE_HIRE_TYPE_IDS.adHoc, 'Ad hoc / Spot'],
      [VEHICLE_HIRE_TYPE_IDS.monthlyFixed, 'Monthly fixed'],
      [VEHICLE_HIRE_TYPE_IDS.tripBased, 'Trip based'],
    ]);
  });

  it('has exactly one required-flags row for every pair of vehicle hire type and RFP type', () => {
    const pairs = VEHICLE_HIRE_TYPES.flatMap((h) => RFP_TYPES.map((t) => `${h.id}/${t.id}`)).sort();
    expect(RFP_REQUIRED_FLAGS.map((r) => `${r.hireTypeId}/${r.rfpTypeId}`).sort()).toEqual(pairs);
  });

  it('asks MLL and the BA for what each RFP type needs', () => {
    const flags = (code: keyof typeof RFP_TYPE_IDS) =>
      RFP_REQUIRED_FLAGS.filter((r) => r.rfpTypeId === RFP_TYPE_IDS[code]).map((r) => [r.hireTypeId, r.isRequiredByMll, r.isRequiredByBa]);
    const { dedicated, adHoc, monthlyFixed, tripBased } = VEHICLE_HIRE_TYPE_IDS;
    // A committed fleet quotes every lane; spot and trip based BAs quote the lanes they serve.
    expect(flags('standard')).toEqual([
      [dedicated, true, true],
      [adHoc, true, false],
      [monthlyFixed, true, true],
      [tripBased, true, false],
    ]);
    // The customer's own sheet: nothing is enforced column by column.
    expect(flags('non-standard').map(([, mll, ba]) => [mll, ba])).toEqual(Array(4).fill([false, false]));
    // One lane: described and quoted in full.
    expect(flags('single').map(([, mll, ba]) => [mll, ba])).toEqual(Array(4).fill([true, true]));
  });

  it('has the MLL properties, BA properties and dynamic info lane columns', () => {
    const keysOf = (owner: string) => RFP_PROPERTIES.filter((p) => p.owner === owner).map((p) => p.key);
    expect(keysOf('mll')).toEqual(['fromCity', 'toCity', 'vehicleType', 'distanceKm', 'tripsPerMonth', 'loadTonnes', 'materialType']);
    expect(keysOf('ba')).toEqual(['ratePerTrip', 'ratePerKm', 'transitDays', 'vehiclesAvailable', 'detentionPerDay', 'remarks']);
    expect(keysOf('dynamic')).toEqual(['fuelClause', 'paymentTerms', 'loadingUnloading']);
  });

  it('gives every RFP type the columns a lane cannot do without, and the single RFP no per-km rate', () => {
    for (const code of ['standard', 'non-standard', 'single'] as const) {
      const keys = propertiesOf(code).map((p) => p.key);
      expect({ code, keys }).toEqual({ code, keys: expect.arrayContaining(['fromCity', 'toCity', 'vehicleType', 'ratePerTrip']) });
    }
    expect(propertiesOf('standard').map((p) => p.key)).toContain('ratePerKm');
    expect(propertiesOf('single').map((p) => p.key)).not.toContain('ratePerKm');
  });

  it('orders the lane columns MLL first, then BA, then dynamic info, each at its own position', () => {
    const orders = RFP_PROPERTIES.map((p) => p.columnOrder);
    expect(new Set(orders).size).toBe(orders.length);
    const rank = { mll: 0, ba: 1, dynamic: 2 } as const;
    const sorted = [...RFP_PROPERTIES].sort((a, b) => a.columnOrder - b.columnOrder);
    expect(sorted.map((p) => rank[p.owner])).toEqual([...sorted.map((p) => rank[p.owner])].sort());
  });

  it('gives every dropdown its choices, each once, and no other column any', () => {
    for (const p of RFP_PROPERTIES) {
      const choices = optionListOf(p.options);
      if (p.valueType === 'select') {
        expect({ key: p.key, many: choices.length >= 2, written: choices.join(', ') }).toEqual({ key: p.key, many: true, written: p.options });
      } else {
        expect({ key: p.key, options: p.options }).toEqual({ key: p.key, options: null });
      }
    }
  });
});
