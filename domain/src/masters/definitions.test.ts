import { messages } from '../validation/fields';
import {
  duplicateMessage,
  masterByResource,
  masterDefinition,
  MASTERS,
  masterSchema,
  savedMessage,
  type MasterDefinition,
  type MasterField,
} from './definitions';
import { sampleValues } from './testing';

const issuesOf = (def: MasterDefinition, mode: 'create' | 'update', input: Record<string, unknown>) => {
  const r = masterSchema(def, mode).safeParse(input);
  if (r.success) return {};
  return Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
};

const everyField = (pred: (f: MasterField) => boolean) =>
  MASTERS.flatMap((def) => def.fields.filter(pred).map((field) => [def.resource, field.name, def, field] as const));

/** Spec 000 §2: the masters with a route under /meta-data. */
const SPEC_PATHS = [
  'city', 'state', 'location', 'vehicle-type', 'service', 'email-template', 'payment-terms', 'vendor-recon',
  'section-code', 'bank-key', 'vendor-type', 'tax-type', 'cost-center', 'hsn-code', 'base-transaction-type',
  'tax-code', 'gl-account', 'collection', 'sap',
];

describe('master definitions', () => {
  it('has one kebab-case resource and one console path per master, covering every route of the spec', () => {
    const resources = MASTERS.map((d) => d.resource);
    expect(new Set(resources).size).toBe(resources.length);
    for (const r of resources) expect(r).toMatch(/^[a-z]+(-[a-z]+)*$/);
    const paths = MASTERS.map((d) => d.consolePath);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toEqual(expect.arrayContaining(SPEC_PATHS));
    expect(masterByResource('cities')?.singular).toBe('City');
    expect(masterByResource('nope')).toBeUndefined();
  });

  it.each(MASTERS.map((d) => [d.resource, d] as const))(
    '%s names fields that exist for display, uniqueness and references',
    (_r, def) => {
      const names = def.fields.map((f) => f.name);
      expect(names).toContain(def.display);
      for (const key of [def.unique, ...(def.alsoUnique ?? [])]) for (const n of key) expect(names).toContain(n);
      for (const f of def.fields) {
        expect(f.name).toMatch(/^[a-z][A-Za-z]*$/);
        if (f.kind === 'ref' || f.kind === 'refs') expect(masterByResource(f.ref ?? '')).toBeDefined();
        if (f.kind === 'enum') expect(f.options?.length).toBeGreaterThan(0);
      }
      expect(def.idKind === 'code').toBe(def.resource === 'companies');
    },
  );

  it('says what went wrong in the spec-style messages', () => {
    expect(duplicateMessage(masterDefinition('cities'), ['name', 'stateId'])).toBe(
      'A City with this City Name and State already exists',
    );
    expect(duplicateMessage(masterDefinition('hsn-codes'), ['hsnCode'])).toBe(
      'An HSN Code with this HSN/SAC Code already exists',
    );
    expect(savedMessage(masterDefinition('vehicle-types'))).toBe('Vehicle Type saved successfully');
  });
});

describe('masterSchema', () => {
  it.each(MASTERS.map((d, i) => [d.resource, d, i] as const))('%s: a valid item passes and is active', (_r, def, i) => {
    const parsed = masterSchema(def, 'create').parse(sampleValues(def, i));
    expect(parsed.status).toBe('active');
    for (const f of def.fields) expect(parsed[f.name]).toBeDefined();
  });

  it.each(everyField((f) => f.required))('%s.%s: missing on create says it is required', (_r, name, def, field) => {
    const { [name]: _left, ...rest } = sampleValues(def, 1);
    const expected =
      field.kind === 'ref' || field.kind === 'enum'
        ? `Please select a ${field.label}`
        : field.kind === 'refs'
          ? `Please select at least one ${masterDefinition(field.ref!).singular}`
          : messages.required;
    expect(issuesOf(def, 'create', rest)).toEqual({ [name]: expected });
    // Left out of an update it is unchanged; sent blank it is still required.
    expect(issuesOf(def, 'update', {})).toEqual({});
    if (field.kind !== 'enum' && field.kind !== 'refs') {
      expect(issuesOf(def, 'update', { [name]: '  ' })).toEqual({ [name]: expected });
    }
  });

  it.each(everyField((f) => !f.required && f.kind !== 'bool' && f.kind !== 'refs'))(
    '%s.%s: optional, blank becomes null',
    (_r, name, def) => {
      const parsed = masterSchema(def, 'create').parse({ ...sampleValues(def, 2), [name]: '' });
      expect(parsed[name]).toBeNull();
      const { [name]: _left, ...rest } = sampleValues(def, 2);
      expect(masterSchema(def, 'create').parse(rest)[name]).toBeNull();
    },
  );

  it.each(everyField((f) => ['text', 'name', 'code', 'longtext'].includes(f.kind)))(
    '%s.%s: a value starting with a formula character is refused',
    (_r, name, def, field) => {
      for (const bad of ['=HYPERLINK("x")', '+91', '@SUM(A1)', '|cmd']) {
        const issues = issuesOf(def, 'create', { ...sampleValues(def, 3), [name]: bad });
        expect(Object.keys(issues)).toEqual([name]);
        if (field.kind === 'text' || field.kind === 'longtext') expect(issues[name]).toBe(messages.leadingCharacter);
      }
    },
  );

  it.each(everyField((f) => ['text', 'name', 'code', 'longtext'].includes(f.kind)))(
    '%s.%s: a value longer than allowed is refused',
    (_r, name, def, field) => {
      const max = field.max ?? (field.kind === 'code' ? 25 : field.kind === 'longtext' ? 10000 : 260);
      const issues = issuesOf(def, 'create', { ...sampleValues(def, 4), [name]: 'A'.repeat(max + 1) });
      expect(Object.keys(issues)).toEqual([name]);
      if (field.kind !== 'code') {
        expect(issues[name]).toBe(max === 260 ? messages.tooLong : `Maximum ${max} characters allowed`);
      }
    },
  );

  it.each(everyField((f) => f.kind === 'percent'))('%s.%s: a rate is 0–100 with up to 2 decimals', (_r, name, def) => {
    const schema = masterSchema(def, 'create');
    expect(schema.parse({ ...sampleValues(def, 5), [name]: '2.25' })[name]).toBe(2.25);
    for (const bad of [100.01, -1, 1.234, 'ten']) {
      expect(Object.keys(issuesOf(def, 'create', { ...sampleValues(def, 5), [name]: bad }))).toEqual([name]);
    }
  });

  it.each(everyField((f) => f.kind === 'ref' || f.kind === 'refs'))(
    '%s.%s: references are positive whole ids',
    (_r, name, def, field) => {
      const wrap = (v: unknown) => (field.kind === 'refs' ? [v] : v);
      for (const bad of [0, -3, 1.5, 'abc']) {
        expect(Object.keys(issuesOf(def, 'create', { ...sampleValues(def, 6), [name]: wrap(bad) }))).toEqual([name]);
      }
    },
  );

  it('normalises what people type: trimmed text, upper-case codes, numbers from text, sorted id lists', () => {
    const state = masterSchema(masterDefinition('states'), 'create').parse({
      name: ' Goa ',
      stateCode: 'ga',
      gstStateCode: '30',
      isUnionTerritory: 'No',
    });
    expect(state).toEqual({ name: 'Goa', stateCode: 'GA', gstStateCode: '30', isUnionTerritory: false, status: 'active' });
    const zone = masterSchema(masterDefinition('zones'), 'create').parse({ name: 'West', stateIds: '27, 24,27' });
    expect(zone.stateIds).toEqual([24, 27]);
    expect(issuesOf(masterDefinition('states'), 'create', { name: 'Goa', stateCode: 'G4', gstStateCode: '3' })).toEqual({
      stateCode: 'State code must be 2 letters',
      gstStateCode: 'GST state code must be 2 digits',
    });
    expect(issuesOf(masterDefinition('cities'), 'create', { name: 'Pune 2', stateId: 27 })).toEqual({ name: messages.name });
  });

  it('accepts every GST type of the spec, the empty code included, and nothing else', () => {
    const def = masterDefinition('gst-types');
    for (const code of ['', '0', '1', '2', '3']) expect(masterSchema(def, 'create').parse({ code, name: 'X' }).code).toBe(code);
    expect(issuesOf(def, 'create', { code: '4', name: 'X' })).toEqual({ code: 'Please select a valid GST Type Code' });
  });

  it('accepts the three RFP type codes of the spec and nothing else', () => {
    const def = masterDefinition('rfp-types');
    for (const code of ['standard', 'non-standard', 'single']) expect(masterSchema(def, 'create').parse({ code, name: 'X' }).code).toBe(code);
    expect(issuesOf(def, 'create', { code: 'express', name: 'Express' })).toEqual({ code: 'Please select a valid RFP Type Code' });
  });

  it('takes an RFP property’s column key in camelCase only, who fills it and its value type from their lists', () => {
    const def = masterDefinition('rfp-properties');
    const valid = { key: 'ratePerTrip', label: 'Rate per Trip', owner: 'ba', valueType: 'number', columnOrder: 110, rfpTypeIds: '3,1' };
    expect(masterSchema(def, 'create').parse(valid)).toMatchObject({ key: 'ratePerTrip', isRequired: false, options: null, rfpTypeIds: [1, 3] });
    const keyMessage = 'Column key must start with a lower-case letter, then up to 39 letters or digits';
    for (const key of ['RatePerTrip', 'rate_per_trip', 'rate per trip', '1stRate', `r${'a'.repeat(40)}`]) {
      expect(issuesOf(def, 'create', { ...valid, key })).toEqual({ key: keyMessage });
    }
    expect(masterSchema(def, 'create').parse({ ...valid, key: `r${'a'.repeat(39)}` }).key).toHaveLength(40);
    expect(issuesOf(def, 'create', { ...valid, owner: 'customer', valueType: 'date', rfpTypeIds: [] })).toEqual({
      owner: 'Please select a valid Filled By',
      valueType: 'Please select a valid Value Type',
      rfpTypeIds: 'Please select at least one RFP Type',
    });
  });

  it('names the pair when a second required-flags row is added for it', () => {
    expect(duplicateMessage(masterDefinition('rfp-required-flags'), ['hireTypeId', 'rfpTypeId'])).toBe(
      'An RFP Required Flag with this Vehicle Hire Type and RFP Type already exists',
    );
  });

  it('refuses a status other than active or inactive', () => {
    const def = masterDefinition('vehicle-types');
    expect(issuesOf(def, 'update', { status: 'deleted' })).toEqual({ status: "Status must be 'active' or 'inactive'" });
    expect(masterSchema(def, 'update').parse({ status: 'inactive' })).toEqual({ status: 'inactive' });
  });
});
