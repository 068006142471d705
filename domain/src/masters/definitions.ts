import { z } from 'zod';
import { MAX_TEXT_LENGTH, messages, patterns, safeText } from '../validation/fields';

/**
 * Every master of the Masters application, described once. The API routes, the projection, the workbook
 * import/export and both front ends are generic over this list: adding a master is adding an entry here.
 * Field names follow spec 000 §3 "Master data" in camelCase; where the spec says "not shown" the fields are
 * the ones a user of that master expects (recorded in ARCHITECTURE.md).
 */
export type MasterFieldKind =
  | 'text'
  | 'name'
  | 'code'
  | 'longtext'
  | 'int'
  | 'decimal'
  | 'percent'
  | 'bool'
  | 'ref'
  | 'refs'
  | 'enum'
  | 'email';

export type MasterField = {
  name: string;
  label: string;
  kind: MasterFieldKind;
  required: boolean;
  /** Resource of the referenced master, for 'ref' | 'refs'. */
  ref?: string;
  options?: readonly { id: string; name: string }[];
  /** Text kinds: maximum length; 'int' | 'decimal': maximum value. */
  max?: number;
  /** 'code' fields whose rule is not the generic 1–25 alphanumerics (stateCode, companyCode…). */
  pattern?: RegExp;
  /** The message shown when `pattern` does not match. */
  patternMessage?: string;
  /** Upper-cased before it is checked and stored (codes people type in either case, like the IFSC). */
  upperCase?: boolean;
};

export type MasterDefinition = {
  /** 'cities' — API path /api/cities, react-admin resource, projection `master` column. */
  resource: string;
  /** 'Cities' (sidebar / list title). */
  label: string;
  /** 'City' (messages: "City saved successfully"). */
  singular: string;
  /** Spec route under /meta-data, e.g. 'city' → console route /meta-data/city. */
  consolePath?: string;
  fields: readonly MasterField[];
  /** The field shown as the item's name (selects, references). */
  display: string;
  /** Fields whose values together must be unique (case-insensitive). */
  unique: readonly string[];
  /** Further unique keys besides `unique` (a state's code and GST code are unique on their own too). */
  alsoUnique?: readonly (readonly string[])[];
  /** 'code' only for companies: id = the companyCode value. */
  idKind: 'int' | 'code';
  /** Readable without sign-in (the registration form lists the companies). */
  publicRead?: boolean;
};

export type MasterStatus = 'active' | 'inactive';
export const MASTER_STATUSES: readonly MasterStatus[] = ['active', 'inactive'];

/** Values of one item, keyed by field name. Optional fields left empty are null. */
export type MasterValues = Record<string, unknown>;

/** Spec 000 §3 "GST type labels". The empty code is a real value: GST Registered. */
export const GST_TYPE_OPTIONS = [
  { id: '', name: 'GST Registered' },
  { id: '0', name: 'Not Registered' },
  { id: '1', name: 'Composition Dealer' },
  { id: '2', name: 'Registered with RCM' },
  { id: '3', name: 'Special Economic Zone' },
] as const;

/**
 * Spec 001 §1 "RFP types: standard, non-standard, single". A fixed set, like the GST types: the RFP wizard
 * behaves differently per code (a non-standard RFP enables step 5 after its upload), so an administrator may
 * rename a type but not invent one the wizard would not know how to run.
 */
export const RFP_TYPE_OPTIONS = [
  { id: 'standard', name: 'Standard' },
  { id: 'non-standard', name: 'Non-standard' },
  { id: 'single', name: 'Single' },
] as const;
export type RfpTypeCode = (typeof RFP_TYPE_OPTIONS)[number]['id'];

/**
 * Spec 001 §2 step 2: the property lists mllProperties, baProperties and dynamicInfo. Who fills a lane
 * column: MLL describes the lane, the BA quotes it, dynamic info is extra lane information a given RFP adds.
 */
export const RFP_PROPERTY_OWNER_OPTIONS = [
  { id: 'mll', name: 'MLL property' },
  { id: 'ba', name: 'BA property' },
  { id: 'dynamic', name: 'Dynamic info' },
] as const;
export type RfpPropertyOwner = (typeof RFP_PROPERTY_OWNER_OPTIONS)[number]['id'];

/** What a lane cell holds; 'select' offers the property's comma-separated options as a dropdown. */
export const RFP_VALUE_TYPE_OPTIONS = [
  { id: 'text', name: 'Text' },
  { id: 'number', name: 'Number' },
  { id: 'select', name: 'Select (dropdown)' },
] as const;
export type RfpValueType = (typeof RFP_VALUE_TYPE_OPTIONS)[number]['id'];

const f = (
  name: string,
  label: string,
  kind: MasterFieldKind,
  required = true,
  extra: Partial<MasterField> = {},
): MasterField => ({ name, label, kind, required, ...extra });

/** TDS sections as the Income Tax Act numbers them: 194C, 194J(a), 194-IA, 206AA. */
const sectionCodeRule = {
  pattern: /^[0-9A-Za-z][0-9A-Za-z()-]{0,24}$/,
  patternMessage: 'Section code must be up to 25 letters, digits, brackets or hyphens',
  upperCase: false,
};

/** Spec 000 §5 mass upload: "Company Code and Purchase Organisation: 1-4 uppercase alphanumerics". */
const companyCodeRule = {
  pattern: /^[A-Z0-9]{1,4}$/,
  patternMessage: 'Company code must be 1 to 4 uppercase letters or digits',
  upperCase: true,
};

export const MASTERS: readonly MasterDefinition[] = [
  {
    resource: 'states',
    label: 'States',
    singular: 'State',
    consolePath: 'state',
    fields: [
      f('name', 'State Name', 'name'),
      f('stateCode', 'State Code', 'code', true, {
        pattern: /^[A-Z]{2}$/,
        patternMessage: 'State code must be 2 letters',
        upperCase: true,
      }),
      f('gstStateCode', 'GST State Code', 'code', true, {
        pattern: /^\d{2}$/,
        patternMessage: 'GST state code must be 2 digits',
      }),
      f('isUnionTerritory', 'Union Territory', 'bool', false),
    ],
    display: 'name',
    unique: ['name'],
    alsoUnique: [['stateCode'], ['gstStateCode']],
    idKind: 'int',
  },
  {
    resource: 'cities',
    label: 'Cities',
    singular: 'City',
    consolePath: 'city',
    fields: [f('name', 'City Name', 'name'), f('stateId', 'State', 'ref', true, { ref: 'states' })],
    display: 'name',
    unique: ['name', 'stateId'],
    idKind: 'int',
  },
  {
    resource: 'locations',
    label: 'Locations',
    singular: 'Location',
    consolePath: 'location',
    fields: [
      f('locationName', 'Location Name', 'text'),
      f('locationCode', 'Location Code', 'code'),
      f('plantCode', 'Plant Code', 'code'),
      f('isUnionTerritory', 'Union Territory', 'bool', false),
      f('stateId', 'State', 'ref', true, { ref: 'states' }),
    ],
    display: 'locationName',
    unique: ['locationCode'],
    idKind: 'int',
  },
  {
    resource: 'vehicle-types',
    label: 'Vehicle Types',
    singular: 'Vehicle Type',
    consolePath: 'vehicle-type',
    // Vehicle types carry sizes ("32 ft MXL"), so free text rather than the letters-only name rule.
    fields: [f('name', 'Vehicle Type', 'text')],
    display: 'name',
    unique: ['name'],
    idKind: 'int',
  },
  {
    resource: 'services',
    label: 'Services',
    singular: 'Service',
    consolePath: 'service',
    fields: [
      f('name', 'Service Name', 'text'),
      f('slug', 'Slug', 'code', true, {
        pattern: /^[a-z0-9]+(-[a-z0-9]+)*$/,
        patternMessage: 'Slug must be lower-case letters and digits separated by single hyphens',
        max: 60,
      }),
      f('serviceDesc', 'Description', 'text', false),
    ],
    display: 'name',
    unique: ['name'],
    alsoUnique: [['slug']],
    idKind: 'int',
  },
  {
    resource: 'payment-terms',
    label: 'Payment Terms',
    singular: 'Payment Term',
    consolePath: 'payment-terms',
    fields: [
      f('paymentTermCode', 'Payment Term Code', 'code'),
      f('description', 'Description', 'text', false),
      f('days', 'Days', 'int', false, { max: 365 }),
    ],
    display: 'paymentTermCode',
    unique: ['paymentTermCode'],
    idKind: 'int',
  },
  {
    resource: 'vendor-recon-accounts',
    label: 'Vendor Reconciliation Accounts',
    singular: 'Vendor Reconciliation Account',
    consolePath: 'vendor-recon',
    fields: [
      // Spec 000 §5 mass upload: "Vendor Reconciliation Account: up to 10".
      f('accountCode', 'Account Code', 'code', true, {
        pattern: /^[A-Za-z0-9]{1,10}$/,
        patternMessage: 'Account code must be 1 to 10 letters or digits',
      }),
      f('description', 'Description', 'text'),
    ],
    display: 'accountCode',
    unique: ['accountCode'],
    idKind: 'int',
  },
  {
    resource: 'section-codes',
    label: 'Section Codes',
    singular: 'Section Code',
    consolePath: 'section-code',
    fields: [f('sectionCode', 'Section Code', 'code', true, sectionCodeRule), f('description', 'Description', 'text')],
    display: 'sectionCode',
    unique: ['sectionCode'],
    idKind: 'int',
  },
  {
    resource: 'bank-keys',
    label: 'Bank Keys',
    singular: 'Bank Key',
    consolePath: 'bank-key',
    fields: [
      // The bank's IFSC prefix: the 4 letters before the 0.
      f('bankCode', 'Bank Code', 'code', true, {
        pattern: /^[A-Z]{4}$/,
        patternMessage: 'Bank code must be the 4 letters an IFSC starts with',
        upperCase: true,
      }),
      f('description', 'Bank Name', 'text'),
    ],
    display: 'description',
    unique: ['bankCode'],
    idKind: 'int',
  },
  {
    resource: 'vendor-types',
    label: 'Vendor Types',
    singular: 'Vendor Type',
    consolePath: 'vendor-type',
    fields: [f('type', 'Vendor Type', 'text')],
    display: 'type',
    unique: ['type'],
    idKind: 'int',
  },
  {
    resource: 'tax-types',
    label: 'Tax Types',
    singular: 'Tax Type',
    consolePath: 'tax-type',
    fields: [
      f('taxType', 'Tax Type', 'code'),
      f('taxCode', 'Tax Code', 'code'),
      f('taxName', 'Tax Name', 'text'),
      f('taxRate', 'Tax Rate (%)', 'percent'),
      f('sectionCode', 'Section Code', 'code', true, sectionCodeRule),
      f('description', 'Description', 'text', false),
    ],
    display: 'taxName',
    unique: ['taxType', 'taxCode'],
    idKind: 'int',
  },
  {
    resource: 'collections',
    label: 'Collections',
    singular: 'Collection',
    consolePath: 'collection',
    fields: [
      f('collectionCode', 'Collection Code', 'code'),
      f('name', 'Name', 'text'),
      f('description', 'Description', 'text', false),
    ],
    display: 'name',
    unique: ['collectionCode'],
    idKind: 'int',
  },
  {
    resource: 'sap-settings',
    label: 'SAP',
    singular: 'SAP Setting',
    consolePath: 'sap',
    fields: [
      f('companyCode', 'Company Code', 'code', true, companyCodeRule),
      f('purchaseOrganisation', 'Purchase Organisation', 'code', true, {
        ...companyCodeRule,
        patternMessage: 'Purchase organisation must be 1 to 4 uppercase letters or digits',
      }),
      // Spec 000 §5 mass upload: "Account Group: 1-4 alphanumerics", "BP Role: 1-6".
      f('accountGroup', 'Account Group', 'code', true, {
        pattern: /^[A-Za-z0-9]{1,4}$/,
        patternMessage: 'Account group must be 1 to 4 letters or digits',
      }),
      f('bpRole', 'BP Role', 'code', true, {
        pattern: /^[A-Za-z0-9]{1,6}$/,
        patternMessage: 'BP role must be 1 to 6 letters or digits',
      }),
      f('description', 'Description', 'text', false),
    ],
    display: 'companyCode',
    unique: ['companyCode', 'purchaseOrganisation', 'accountGroup'],
    idKind: 'int',
  },
  {
    resource: 'email-templates',
    label: 'Email Templates',
    singular: 'Email Template',
    consolePath: 'email-template',
    fields: [
      f('templateKey', 'Template Key', 'code', true, {
        pattern: /^[A-Za-z0-9][A-Za-z0-9_.-]{0,59}$/,
        patternMessage: 'Template key must be up to 60 letters, digits, dots, hyphens or underscores',
      }),
      f('name', 'Name', 'text'),
      f('subject', 'Subject', 'text'),
      f('body', 'Body', 'longtext', true, { max: 10000 }),
    ],
    display: 'name',
    unique: ['templateKey'],
    idKind: 'int',
  },
  {
    resource: 'cost-centers',
    label: 'Cost Centers',
    singular: 'Cost Center',
    consolePath: 'cost-center',
    fields: [
      f('costCenterCode', 'Cost Center Code', 'code'),
      f('description', 'Description', 'text'),
      f('companyCode', 'Company Code', 'code', false, companyCodeRule),
    ],
    display: 'costCenterCode',
    unique: ['costCenterCode'],
    idKind: 'int',
  },
  {
    resource: 'hsn-codes',
    label: 'HSN Codes',
    singular: 'HSN Code',
    consolePath: 'hsn-code',
    fields: [
      f('hsnCode', 'HSN/SAC Code', 'code', true, {
        pattern: /^\d{4,8}$/,
        patternMessage: 'HSN/SAC code must be 4 to 8 digits',
      }),
      f('description', 'Description', 'text'),
      f('gstRate', 'GST Rate (%)', 'percent'),
    ],
    display: 'hsnCode',
    unique: ['hsnCode'],
    idKind: 'int',
  },
  {
    resource: 'base-transaction-types',
    label: 'Base Transaction Types',
    singular: 'Base Transaction Type',
    consolePath: 'base-transaction-type',
    fields: [f('code', 'Code', 'code'), f('name', 'Name', 'text')],
    display: 'name',
    unique: ['code'],
    idKind: 'int',
  },
  {
    resource: 'tax-codes',
    label: 'Tax Codes',
    singular: 'Tax Code',
    consolePath: 'tax-code',
    fields: [
      f('taxCode', 'Tax Code', 'code'),
      f('description', 'Description', 'text'),
      f('taxRate', 'Tax Rate (%)', 'percent'),
    ],
    display: 'taxCode',
    unique: ['taxCode'],
    idKind: 'int',
  },
  {
    resource: 'gl-accounts',
    label: 'GL Accounts',
    singular: 'GL Account',
    consolePath: 'gl-account',
    fields: [f('glAccountCode', 'GL Account Code', 'code'), f('description', 'Description', 'text')],
    display: 'glAccountCode',
    unique: ['glAccountCode'],
    idKind: 'int',
  },
  {
    resource: 'document-types',
    label: 'Documents',
    singular: 'Document',
    consolePath: 'document-type',
    fields: [
      f('name', 'Document Name', 'text'),
      f('mandatoryServiceIds', 'Mandatory for Services', 'refs', false, { ref: 'services' }),
      f('needsValidityDate', 'Validity Date Needed', 'bool', false),
      f('isGstDocument', 'GST Document', 'bool', false),
    ],
    display: 'name',
    unique: ['name'],
    idKind: 'int',
  },
  {
    resource: 'additional-document-types',
    label: 'Additional Documents',
    singular: 'Additional Document',
    consolePath: 'additional-document-type',
    fields: [f('name', 'Document Name', 'text'), f('needsValidityDate', 'Validity Date Needed', 'bool', false)],
    display: 'name',
    unique: ['name'],
    idKind: 'int',
  },
  {
    resource: 'business-types',
    label: 'Business Types',
    singular: 'Business Type',
    consolePath: 'business-type',
    fields: [f('name', 'Business Type', 'text')],
    display: 'name',
    unique: ['name'],
    idKind: 'int',
  },
  {
    resource: 'gst-types',
    label: 'GST Types',
    singular: 'GST Type',
    consolePath: 'gst-type',
    fields: [
      f('code', 'GST Type Code', 'enum', true, { options: GST_TYPE_OPTIONS }),
      f('name', 'Label', 'text'),
    ],
    display: 'name',
    unique: ['code'],
    idKind: 'int',
  },
  {
    resource: 'departments',
    label: 'BA Departments',
    singular: 'Department',
    consolePath: 'department',
    fields: [f('name', 'Department', 'name')],
    display: 'name',
    unique: ['name'],
    idKind: 'int',
  },
  {
    resource: 'verticals',
    label: 'Verticals',
    singular: 'Vertical',
    consolePath: 'vertical',
    fields: [f('name', 'Vertical', 'text'), f('description', 'Description', 'text', false)],
    display: 'name',
    unique: ['name'],
    idKind: 'int',
  },
  {
    resource: 'zones',
    label: 'Zones',
    singular: 'Zone',
    consolePath: 'zone',
    fields: [f('name', 'Zone', 'text'), f('stateIds', 'States', 'refs', true, { ref: 'states' })],
    display: 'name',
    unique: ['name'],
    idKind: 'int',
  },
  {
    resource: 'exemption-reasons',
    label: 'Exemption Reasons',
    singular: 'Exemption Reason',
    consolePath: 'exemption-reason',
    fields: [f('reasonCode', 'Reason Code', 'code'), f('description', 'Description', 'text')],
    display: 'description',
    unique: ['reasonCode'],
    idKind: 'int',
  },
  {
    resource: 'block-reasons',
    label: 'Block Reasons',
    singular: 'Block Reason',
    consolePath: 'block-reason',
    fields: [f('reason', 'Reason', 'text')],
    display: 'reason',
    unique: ['reason'],
    idKind: 'int',
  },
  {
    resource: 'erp-reject-reasons',
    label: 'ERP Reject Reasons',
    singular: 'ERP Reject Reason',
    consolePath: 'erp-reject-reason',
    fields: [f('reason', 'Reason', 'text')],
    display: 'reason',
    unique: ['reason'],
    idKind: 'int',
  },
  // The RFP masters: spec 001 §2 step 2 and §7 (rfp-type master, rfp-vehicle-master, rfp-properties by type,
  // required flags by hireTypeId and rfpTypeId).
  {
    resource: 'rfp-types',
    label: 'RFP Types',
    singular: 'RFP Type',
    consolePath: 'rfp-type',
    fields: [
      f('name', 'RFP Type', 'text'),
      f('code', 'RFP Type Code', 'enum', true, { options: RFP_TYPE_OPTIONS }),
    ],
    display: 'name',
    unique: ['code'],
    alsoUnique: [['name']],
    idKind: 'int',
  },
  {
    resource: 'vehicle-hire-types',
    label: 'Vehicle Hire Types',
    singular: 'Vehicle Hire Type',
    consolePath: 'vehicle-hire-type',
    fields: [
      f('name', 'Vehicle Hire Type', 'text'),
      f('code', 'Hire Type Code', 'code', true, { upperCase: true }),
    ],
    display: 'name',
    unique: ['code'],
    alsoUnique: [['name']],
    idKind: 'int',
  },
  {
    resource: 'rfp-properties',
    label: 'RFP Properties',
    singular: 'RFP Property',
    consolePath: 'rfp-property',
    fields: [
      // The column's key in lane rows, templates and the BA grid: camelCase, like the spec's field names.
      f('key', 'Column Key', 'code', true, {
        pattern: /^[a-z][A-Za-z0-9]{0,39}$/,
        patternMessage: 'Column key must start with a lower-case letter, then up to 39 letters or digits',
        max: 40,
      }),
      f('label', 'Column Label', 'text'),
      f('owner', 'Filled By', 'enum', true, { options: RFP_PROPERTY_OWNER_OPTIONS }),
      f('valueType', 'Value Type', 'enum', true, { options: RFP_VALUE_TYPE_OPTIONS }),
      // One text cell rather than a list master: a dropdown's few choices belong to the property alone.
      f('options', 'Dropdown Options (comma-separated)', 'text', false),
      f('isRequired', 'Required', 'bool', false),
      // Where the column sits in the lane template and grid, so an added property need not go last.
      f('columnOrder', 'Column Order', 'int', true, { max: 999 }),
      // "rfp-properties by type" (spec 001 §7) is the list filtered on this field.
      f('rfpTypeIds', 'RFP Types', 'refs', true, { ref: 'rfp-types' }),
    ],
    display: 'label',
    unique: ['key'],
    // Templates are read back by their header row: two columns may not share a label.
    alsoUnique: [['label']],
    idKind: 'int',
  },
  {
    resource: 'rfp-required-flags',
    label: 'RFP Required Flags',
    singular: 'RFP Required Flag',
    consolePath: 'rfp-required-flag',
    fields: [
      f('hireTypeId', 'Vehicle Hire Type', 'ref', true, { ref: 'vehicle-hire-types' }),
      f('rfpTypeId', 'RFP Type', 'ref', true, { ref: 'rfp-types' }),
      f('isRequiredByMll', 'Required by MLL', 'bool', false),
      f('isRequiredByBa', 'Required by BA', 'bool', false),
      // The row's name in lists and titles (a pair of ids reads badly), and why the pair asks what it asks.
      f('description', 'Description', 'text'),
    ],
    display: 'description',
    unique: ['hireTypeId', 'rfpTypeId'],
    idKind: 'int',
  },
  {
    resource: 'companies',
    label: 'Companies',
    singular: 'Company',
    consolePath: 'company',
    fields: [f('companyCode', 'Company Code', 'code', true, companyCodeRule), f('name', 'Company Name', 'text')],
    display: 'name',
    unique: ['companyCode'],
    idKind: 'code',
    publicRead: true,
  },
];

const byResource = new Map(MASTERS.map((d) => [d.resource, d]));

export function masterByResource(resource: string): MasterDefinition | undefined {
  return byResource.get(resource);
}

/** Like masterByResource, for names known at compile time of the caller (throws on a typo). */
export function masterDefinition(resource: string): MasterDefinition {
  const def = byResource.get(resource);
  if (!def) throw new Error(`Unknown master ${resource}`);
  return def;
}

export const fieldOf = (def: MasterDefinition, name: string): MasterField | undefined =>
  def.fields.find((x) => x.name === name);

/** Every unique key of a master: `unique` first, then `alsoUnique`. */
export const uniqueKeysOf = (def: MasterDefinition): readonly (readonly string[])[] => [
  def.unique,
  ...(def.alsoUnique ?? []),
];

/** "State Name" or "City Name and State" — how a 409 names the key. */
export const uniqueKeyLabel = (def: MasterDefinition, key: readonly string[]): string =>
  key.map((n) => fieldOf(def, n)?.label ?? n).join(' and ');

/** The message of a 409 (contract: "A <singular> with this <field label> already exists"). */
export const duplicateMessage = (def: MasterDefinition, key: readonly string[]): string =>
  `${article(def.singular)} ${def.singular} with this ${uniqueKeyLabel(def, key)} already exists`;

/** "An Email Template", "An HSN Code" (initialisms are read letter by letter), "A GST Type". */
const article = (noun: string): string => {
  const first = noun.split(' ')[0] ?? '';
  const initialism = first.length > 1 && first === first.toUpperCase();
  return (initialism ? /^[AEFHILMNORSX]/ : /^[AEIOU]/i).test(first) ? 'An' : 'A';
};

export const savedMessage = (def: MasterDefinition): string => `${def.singular} saved successfully`;

/** "Please select a valid State" — a ref to an unknown or inactive item. */
export const invalidRefMessage = (field: MasterField): string => `Please select a valid ${field.label}`;

/** The id of an item created with these values, for masters whose id is a code (companies). */
export const codeIdOf = (def: MasterDefinition, values: MasterValues): string | null =>
  def.idKind === 'code' ? String(values[def.unique[0]!] ?? '') : null;

// ---------------------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------------------

const trimmed = (v: unknown): unknown => (typeof v === 'string' ? v.trim() : v);
const isBlank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** Numbers may arrive as numbers (JSON) or as the text of a form field or a workbook cell. */
const toNumber = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : v;
};

const toBool = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  const t = v.trim().toLowerCase();
  if (['true', 'yes', 'y', '1'].includes(t)) return true;
  if (['false', 'no', 'n', '0', ''].includes(t)) return false;
  return v;
};

const hasAtMostTwoDecimals = (n: number): boolean => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6;

const requiredMessage = (field: MasterField): string =>
  field.kind === 'ref' || field.kind === 'enum' ? `Please select a ${field.label}` : messages.required;

/** The rule of one field for a present (non-blank) value. */
function valueSchema(field: MasterField): z.ZodType {
  const required = { error: requiredMessage(field) };
  switch (field.kind) {
    case 'name':
      return z
        .string(required)
        .max(field.max ?? MAX_TEXT_LENGTH, { error: lengthMessage(field) })
        .regex(patterns.name, { error: messages.name });
    case 'code': {
      const max = field.max ?? 25;
      const upper = field.upperCase;
      return z.preprocess(
        (v) => (upper && typeof v === 'string' ? v.toUpperCase() : v),
        z
          .string(required)
          .max(max, { error: lengthMessage(field, max) })
          .regex(field.pattern ?? patterns.alphanumericCode, {
            error: field.patternMessage ?? messages.alphanumericCode,
          })
          .refine((v) => !patterns.forbiddenLeading.test(v), { error: messages.leadingCharacter }),
      );
    }
    case 'text':
      return safeText(field.max ?? MAX_TEXT_LENGTH);
    case 'longtext':
      return safeText(field.max ?? 10000);
    case 'email':
      return safeText().pipe(z.email({ error: messages.email }));
    case 'int':
      return z.preprocess(
        toNumber,
        z
          .number({ error: messages.integer })
          .int({ error: messages.integer })
          .min(0, { error: messages.integer })
          .max(field.max ?? Number.MAX_SAFE_INTEGER, { error: `Maximum value is ${field.max}` }),
      );
    case 'decimal':
      return z.preprocess(
        toNumber,
        z
          .number({ error: messages.amount })
          .min(0, { error: messages.amount })
          .max(field.max ?? 1e12, { error: `Maximum value is ${field.max ?? 1e12}` })
          .refine(hasAtMostTwoDecimals, { error: messages.amount }),
      );
    case 'percent':
      return z.preprocess(
        toNumber,
        z
          .number({ error: 'Please enter a rate between 0 and 100 with up to 2 decimals' })
          .min(0, { error: 'Rate must be between 0 and 100' })
          .max(100, { error: 'Rate must be between 0 and 100' })
          .refine(hasAtMostTwoDecimals, { error: 'Please enter a rate with up to 2 decimals' }),
      );
    case 'bool':
      return z.preprocess(toBool, z.boolean({ error: 'Please choose yes or no' }));
    case 'ref':
      return z.preprocess(
        toNumber,
        z.number({ error: invalidRefMessage(field) }).int({ error: invalidRefMessage(field) }).positive({
          error: invalidRefMessage(field),
        }),
      );
    case 'refs':
      return z.preprocess(
        (v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean).map(Number) : v),
        z
          .array(z.unknown(), { error: invalidRefMessage(field) })
          .max(1000, { error: 'Too many items selected' })
          // One message for the whole list (not per element), the one a select shows under the field.
          .refine((ids) => ids.every((id) => typeof id === 'number' && Number.isInteger(id) && id > 0), {
            error: invalidRefMessage(field),
          })
          .transform((ids) => ids as number[])
          // Stored sorted and without repeats, so "no change" compares equal whatever order was picked.
          .transform((ids) => [...new Set(ids)].sort((a, b) => a - b)),
      );
    case 'enum': {
      const ids = (field.options ?? []).map((o) => o.id);
      return z
        .string(required)
        .refine((v) => ids.includes(v), { error: `Please select a valid ${field.label}` });
    }
  }
}

const lengthMessage = (field: MasterField, max = field.max ?? MAX_TEXT_LENGTH): string =>
  max === MAX_TEXT_LENGTH ? messages.tooLong : `Maximum ${max} characters allowed`;

/** Blank text becomes null; enum values are kept verbatim because '' is a real GST type. */
const blankToNull = (field: MasterField) => (v: unknown) => {
  if (field.kind === 'enum') return v === null ? undefined : v;
  if (field.kind === 'bool' || field.kind === 'refs') return v === null ? undefined : v;
  const t = trimmed(v);
  return isBlank(t) ? undefined : t;
};

function fieldSchema(field: MasterField, mode: 'create' | 'update'): z.ZodType {
  const rule = valueSchema(field);
  if (field.kind === 'bool') {
    const b = z.preprocess(blankToNull(field), rule.optional());
    return mode === 'create' ? b.transform((v) => v ?? false) : b;
  }
  if (field.kind === 'refs') {
    const atLeastOne = `Please select at least one ${field.ref ? masterDefinition(field.ref).singular : field.label}`;
    const base = z.preprocess(blankToNull(field), rule.optional()) as z.ZodType<number[] | undefined>;
    // Create: left out is an empty list; update: left out is "not changed". Required lists need one entry.
    const list = mode === 'create' ? base.transform((v) => v ?? []) : base;
    return field.required
      ? list.refine((v) => v === undefined || v.length > 0, { error: atLeastOne })
      : list;
  }
  if (field.required) {
    // Missing and blank both say what is required; in update mode a field may be left out, not blanked.
    const present = z.preprocess(blankToNull(field), z.unknown()).superRefine((v, ctx) => {
      if (v === undefined) ctx.addIssue({ code: 'custom', message: requiredMessage(field) });
    });
    const checked = present.pipe(rule);
    // Update: a field left out is not changed (optional() skips only undefined, so a blanked one still fails).
    return mode === 'create' ? checked : checked.optional();
  }
  // Optional: blank means "no value" (null), both on create and on update.
  const optional = z.preprocess(blankToNull(field), rule.optional()).transform((v) => (v === undefined ? null : v));
  return mode === 'create' ? optional : optional.optional();
}

/**
 * The zod rule of a master's item: every field plus an optional `status`. On create, required fields must be
 * present, optional ones become null, booleans default to false, status to 'active'. On update every field
 * may be left out (PUT may carry only a status); a required field that is sent must be valid.
 */
export function masterSchema(def: MasterDefinition, mode: 'create' | 'update') {
  const shape: Record<string, z.ZodType> = {};
  for (const field of def.fields) shape[field.name] = fieldSchema(field, mode);
  const status = z.enum(['active', 'inactive'], { error: "Status must be 'active' or 'inactive'" });
  shape.status = mode === 'create' ? status.default('active') : status.optional();
  return z.object(shape);
}

/** The values an update carries: the parsed object without status and without the fields left out. */
export function presentValues(def: MasterDefinition, parsed: Record<string, unknown>): MasterValues {
  const out: MasterValues = {};
  for (const field of def.fields) if (parsed[field.name] !== undefined) out[field.name] = parsed[field.name];
  return out;
}

/** The text an item is shown by in selects and references. */
export const displayOf = (def: MasterDefinition, values: MasterValues): string => {
  const v = values[def.display];
  if (def.resource === 'gst-types' && typeof v !== 'string') return '';
  return v === null || v === undefined ? '' : String(v);
};

/** Normalised form of a value inside a unique key: case-insensitive, whitespace-collapsed. */
export const normaliseKeyPart = (v: unknown): string =>
  v === null || v === undefined ? '' : String(v).trim().replace(/\s+/g, ' ').toLowerCase();

/** The normalised values of one unique key's fields, in the key's order. */
export const keyParts = (key: readonly string[], values: MasterValues): string[] => key.map((n) => normaliseKeyPart(values[n]));

/** The normalised key of `values` for one unique key of the master (within one key: the parts alone). */
export const uniqueKeyValue = (key: readonly string[], values: MasterValues): string => keyParts(key, values).join('\u001f');

/**
 * One unique key of `values` as a single text (`name=acme roadways`, `taxType+taxCode=…`): what the api claims in
 * master_keys and the read model keeps in master_items.unique_keys, so both find a holder by the same text.
 */
export const uniqueKeyText = (key: readonly string[], values: MasterValues): string => keyText(key, keyParts(key, values));

/** The same text from a key's fields and their already normalised parts. */
export const keyText = (fields: readonly string[], parts: readonly string[]): string => `${fields.join('+')}=${parts.join('\u001f')}`;
