import type { MasterDefinition, MasterField, MasterValues } from './definitions';

/**
 * A valid item of any master, different for every `n`, for tests that run one behaviour over every master.
 * Codes stay clear of the reference data (no Indian state code starts with Q, X or Z; GST state codes end at
 * 38 and 97) so a test can create the sample in a database that holds the reference data.
 */
const letters = (n: number, width: number): string => {
  let s = '';
  let x = Math.abs(Math.trunc(n));
  for (let i = 0; i < width; i += 1) {
    s = String.fromCharCode(97 + (x % 26)) + s;
    x = Math.floor(x / 26);
  }
  return s;
};
const base36 = (n: number, width: number): string =>
  (Math.abs(Math.trunc(n)) % 36 ** width).toString(36).toUpperCase().padStart(width, '0');

const byName: Record<string, (n: number) => string> = {
  stateCode: (n) => `${'QXZ'[Math.floor(n / 26) % 3]}${letters(n, 1)}`.toUpperCase(),
  gstStateCode: (n) => String(40 + (n % 50)),
  companyCode: (n) => `Z${base36(n, 3)}`,
  purchaseOrganisation: (n) => `Z${base36(n, 3)}`,
  accountGroup: (n) => `Z${base36(n, 3)}`,
  bpRole: (n) => `Z${base36(n, 5)}`,
  accountCode: (n) => `T${n % 1_000_000_000}`,
  bankCode: (n) => `Q${letters(n, 3)}`.toUpperCase(),
  hsnCode: (n) => String(80_000_000 + (n % 9_999_999)),
  slug: (n) => `sample-${n}`,
  templateKey: (n) => `sample.template-${n}`,
  // An RFP property's column key: camelCase.
  key: (n) => `sampleColumn${n}`,
};

export function sampleValue(field: MasterField, n: number, refIds: Record<string, number> = {}): unknown {
  const special = byName[field.name];
  switch (field.kind) {
    case 'name':
      return `Sample ${letters(n, 4)}`;
    case 'code':
      return special ? special(n) : `T${n}`;
    case 'text':
      return `Sample ${field.label} ${n}`;
    case 'longtext':
      return `Dear partner,\nSample message ${n}.`;
    case 'email':
      return `sample${n}@example.test`;
    case 'int':
      return 30;
    case 'decimal':
      return 12.5;
    case 'percent':
      return 18;
    case 'bool':
      return true;
    case 'ref':
      return refIds[field.ref ?? ''] ?? 1;
    case 'refs':
      return [refIds[field.ref ?? ''] ?? 1];
    case 'enum': {
      const options = field.options ?? [];
      return options[n % options.length]?.id ?? '';
    }
  }
}

export function sampleValues(def: MasterDefinition, n: number, refIds: Record<string, number> = {}): MasterValues {
  return Object.fromEntries(def.fields.map((field) => [field.name, sampleValue(field, n, refIds)]));
}
