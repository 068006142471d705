import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { memoryStore } from 'react-admin';
import { App } from '../App';
import {
  MASTERS,
  masterDefinition,
  masterSchema,
  type MasterDefinition,
  type MasterField,
} from '../../../domain/src/masters/definitions';
import { fakeAuthProvider, fakeDataProvider, type FakeDataProvider } from '../testing/fakes';
import type { MasterChange, MasterCount, MasterImportOutcome, MasterItem } from './types';

/**
 * Test doubles for the Masters screens: two sample items per master (the first active, the second
 * inactive) built from the definitions, valid under each master's own schema, and the console's fake data
 * provider answering the masters' resources and calls from them.
 */
const WORDS = ['Alpha', 'Bravo'] as const;

/** Fields whose rule is narrower than their kind's: values the rule accepts. */
const PATTERNED: Record<string, readonly [string, string]> = {
  stateCode: ['MH', 'KA'],
  gstStateCode: ['27', '29'],
  slug: ['road-transport', 'cold-chain'],
  accountCode: ['160000', '160010'],
  bankCode: ['HDFC', 'ICIC'],
  companyCode: ['1000', '2000'],
  purchaseOrganisation: ['P100', 'P200'],
  accountGroup: ['ZDOM', 'ZIMP'],
  bpRole: ['FLVN00', 'FLVN01'],
  templateKey: ['login-otp', 'welcome'],
  hsnCode: ['9965', '9967'],
  key: ['fromCity', 'ratePerTrip'],
};

const idOf = (def: MasterDefinition, i: 0 | 1): string | number =>
  def.idKind === 'code' ? (PATTERNED[def.unique[0]!]?.[i] ?? WORDS[i]) : i + 1;

/** A valid value of `field` for sample item `i`. */
export function sampleValue(def: MasterDefinition, field: MasterField, i: 0 | 1): unknown {
  const patterned = PATTERNED[field.name];
  if (patterned) return patterned[i];
  switch (field.kind) {
    case 'name':
    case 'text':
      return `${WORDS[i]} ${def.singular}`;
    case 'longtext':
      return `Dear partner, this is the ${WORDS[i]} text.`;
    case 'code': {
      // The first of a few typical codes that the field's rule accepts.
      const rule = masterSchema(def, 'create').shape[field.name]!;
      const candidates = [`${WORDS[i][0]}${i + 1}00`, `194${'CJ'[i]}`, `${(i + 1) * 1111}`, `${WORDS[i][0]}${i + 1}`];
      const found = candidates.find((c) => rule.safeParse(c).success);
      if (!found) throw new Error(`testing.tsx: add a sample for ${def.resource}.${field.name}`);
      return found;
    }
    case 'email':
      return `${WORDS[i].toLowerCase()}@demo.test`;
    case 'int':
      return [30, 45][i];
    case 'decimal':
      return [10.5, 12][i];
    case 'percent':
      return [2, 18][i];
    case 'bool':
      return i === 0;
    case 'ref':
      return idOf(masterDefinition(field.ref!), 0);
    case 'refs':
      return i === 0 ? [1, 2] : [1];
    case 'enum':
      return field.options![i + 1]?.id ?? field.options![0]!.id;
  }
}

export function sampleItem(def: MasterDefinition, i: 0 | 1): MasterItem {
  const values = Object.fromEntries(def.fields.map((f) => [f.name, sampleValue(def, f, i)]));
  // The samples must pass the master's own rules, or the tests would prove nothing about valid input.
  const parsed = masterSchema(def, 'create').safeParse(values);
  if (!parsed.success) throw new Error(`sample of ${def.resource} is invalid: ${parsed.error.message}`);
  return {
    id: idOf(def, i),
    ...values,
    status: i === 0 ? 'active' : 'inactive',
    updatedAt: '2025-11-03T05:00:00.000Z',
  } as MasterItem;
}

export const samples = (def: MasterDefinition): MasterItem[] => [sampleItem(def, 0), sampleItem(def, 1)];

/** The display value a sample item is shown by in selects and reference cells. */
export const sampleName = (def: MasterDefinition, i: 0 | 1): string => String(sampleItem(def, i)[def.display]);

const change = (over: Partial<MasterChange>): MasterChange => ({
  id: 'evt-1',
  type: 'MasterItemCreated',
  at: '2025-11-01T04:30:00.000Z',
  who: 'Reference data',
  role: 'system',
  before: {},
  after: {},
  ...over,
});

export type MastersFakes = {
  counts?: MasterCount[];
  history?: MasterChange[];
  importOutcome?: MasterImportOutcome | (() => Promise<MasterImportOutcome>);
  /** Makes create / update fail with this error (e.g. the API's 400 with field errors). */
  saveError?: unknown;
};

export type MastersDataProvider = FakeDataProvider & {
  getMasterCounts: jest.Mock;
  getMasterHistory: jest.Mock;
  exportMaster: jest.Mock;
  importMaster: jest.Mock;
  getMany: jest.Mock;
};

const masterRows = new Map(MASTERS.map((def) => [def.resource, samples(def)]));

const find = (resource: string, id: unknown) => masterRows.get(resource)?.find((r) => String(r.id) === String(id));

/** The console's fake data provider answering every master from its samples, plus the Masters calls. */
export function mastersProvider(fakes: MastersFakes = {}): MastersDataProvider {
  const base = fakeDataProvider();
  const getList = base.getList.getMockImplementation()!;
  const getOne = base.getOne.getMockImplementation()!;
  base.getList.mockImplementation(async (resource: string, params: unknown) => {
    const rows = masterRows.get(resource);
    return rows ? { data: rows, total: rows.length } : getList(resource, params);
  });
  base.getOne.mockImplementation(async (resource: string, params: { id: unknown }) => {
    if (!masterRows.has(resource)) return getOne(resource, params);
    const found = find(resource, params.id);
    if (!found) throw Object.assign(new Error('Not found'), { status: 404 });
    return { data: found };
  });
  const saveFailure = async () => {
    throw fakes.saveError;
  };
  base.create.mockImplementation(
    fakes.saveError !== undefined
      ? saveFailure
      : async (_resource: string, { data }: { data: Record<string, unknown> }) => ({ data: { ...data, id: 100000 } }),
  );
  base.update.mockImplementation(
    fakes.saveError !== undefined
      ? saveFailure
      : async (resource: string, { id, data }: { id: unknown; data: Record<string, unknown> }) => ({
          data: { ...find(resource, id), ...data, id },
        }),
  );
  const provider = Object.assign(base, {
    getMany: jest.fn(async (resource: string, { ids }: { ids: unknown[] }) => ({
      data: ids.map((id) => find(resource, id)).filter(Boolean),
    })),
    getMasterCounts: jest.fn(
      async () => fakes.counts ?? MASTERS.map((d) => ({ master: d.resource, active: 1, inactive: 1 })),
    ),
    getMasterHistory: jest.fn(async () => fakes.history ?? [change({})]),
    exportMaster: jest.fn(async (resource: string) => ({ blob: new Blob(['xlsx']), fileName: `${resource}.xlsx` })),
    importMaster: jest.fn(async () => {
      const outcome = fakes.importOutcome;
      if (typeof outcome === 'function') return outcome();
      return outcome ?? { ok: true, result: { created: 1, updated: 0, unchanged: 1, message: null } };
    }),
  });
  return provider as unknown as MastersDataProvider;
}

export { change as masterChange };

/** The whole console at `path` for a signed-in user with `roles` (MLL-ADMIN unless said). */
export function renderMasters(path: string, dataProvider = mastersProvider(), roles = ['MLL-ADMIN']) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <App dataProvider={dataProvider} authProvider={fakeAuthProvider(roles, 'Asha Admin')} store={memoryStore()} />
    </MemoryRouter>,
  );
  return dataProvider;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An input's accessible name: its label, with the asterisk a required input carries. */
export const labelled = (label: string) => new RegExp(`^${escape(label)}(\\s*\\*)?$`);

/**
 * Fills one input of a master's form the way a user does: types text and numbers, picks a reference or an
 * option from its list. `value` is a sample value (sampleValue).
 */
export async function fillField(def: MasterDefinition, field: MasterField, value: unknown): Promise<void> {
  switch (field.kind) {
    case 'bool': {
      const box = screen.getByRole('switch', { name: labelled(field.label) });
      if ((box as HTMLInputElement).checked !== value) await userEvent.click(box);
      return;
    }
    case 'enum': {
      await userEvent.click(screen.getByRole('combobox', { name: labelled(field.label) }));
      const name = field.options!.find((o) => o.id === value)!.name;
      await userEvent.click(await screen.findByRole('option', { name }));
      return;
    }
    case 'ref':
    case 'refs': {
      const target = masterDefinition(field.ref!);
      const ids = Array.isArray(value) ? value : [value];
      for (const id of ids) {
        const input = screen.getByRole('combobox', { name: labelled(field.label) });
        await userEvent.click(input);
        const item = samples(target).find((s) => String(s.id) === String(id))!;
        const listbox = await screen.findByRole('listbox');
        await userEvent.click(await within(listbox).findByRole('option', { name: String(item[target.display]) }));
      }
      return;
    }
    default: {
      const numeric = field.kind === 'int' || field.kind === 'decimal' || field.kind === 'percent';
      const input = screen.getByRole(numeric ? 'spinbutton' : 'textbox', { name: labelled(field.label) });
      fireEvent.change(input, { target: { value: String(value) } });
    }
  }
}
