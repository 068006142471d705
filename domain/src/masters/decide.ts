import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { fieldErrors } from '../validation/fields';
import {
  masterByResource,
  masterSchema,
  presentValues,
  type MasterDefinition,
  type MasterStatus,
  type MasterValues,
} from './definitions';
import type { MasterCommand, MasterEvent, MasterItemId } from './events';

export type MasterItemState =
  | { exists: false }
  | { exists: true; master: string; id: MasterItemId; values: MasterValues; status: MasterStatus };

const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

function definitionOf(master: string): MasterDefinition | DomainError {
  return masterByResource(master) ?? new DomainError('not_found', `Unknown master ${master}`);
}

function parse(def: MasterDefinition, mode: 'create' | 'update', values: MasterValues): MasterValues | DomainError {
  const { status: _ignored, ...rest } = values;
  const result = masterSchema(def, mode).safeParse(rest);
  if (!result.success) return new DomainError('validation', 'Please correct the highlighted fields', fieldErrors(result.error));
  return presentValues(def, result.data as Record<string, unknown>);
}

/**
 * One master item. The decider validates values with the master's zod rule itself, so every writer (API,
 * workbook import, reference data) is held to the same rules; uniqueness and references to other items are
 * checked by the API, which can see the other items.
 */
export const masterDecider: Decider<MasterCommand, MasterEvent, MasterItemState> = {
  initialState: { exists: false },

  evolve(state, event) {
    switch (event.type) {
      case 'MasterItemCreated':
        return { exists: true, master: event.data.master, id: event.data.id, values: event.data.values, status: 'active' };
      case 'MasterItemChanged':
        return state.exists ? { ...state, values: { ...state.values, ...event.data.after } } : state;
      case 'MasterItemStatusChanged':
        return state.exists ? { ...state, status: event.data.status } : state;
      default:
        return state;
    }
  },

  decide(command, state) {
    const def = definitionOf(command.master);
    if (def instanceof DomainError) return def;
    const { master, id } = command;

    switch (command.type) {
      case 'CreateMasterItem': {
        if (state.exists) return new DomainError('conflict', `${def.singular} ${id} already exists`);
        const values = parse(def, 'create', command.values);
        if (values instanceof DomainError) return values;
        const created: MasterEvent = { type: 'MasterItemCreated', data: { master, id, values } };
        // Created items are active; "create as inactive" is the creation followed by the status change.
        return command.values.status === 'inactive'
          ? [created, { type: 'MasterItemStatusChanged', data: { master, id, status: 'inactive' } }]
          : [created];
      }
      case 'ChangeMasterItem': {
        if (!state.exists) return new DomainError('not_found', `${def.singular} not found`);
        const values = parse(def, 'update', command.values);
        if (values instanceof DomainError) return values;
        const before: MasterValues = {};
        const after: MasterValues = {};
        for (const [name, value] of Object.entries(values)) {
          if (sameValue(state.values[name], value)) continue;
          before[name] = state.values[name] ?? null;
          after[name] = value;
        }
        if (Object.keys(after).length === 0) return [];
        return [{ type: 'MasterItemChanged', data: { master, id, before, after } }];
      }
      case 'SetMasterItemStatus': {
        if (!state.exists) return new DomainError('not_found', `${def.singular} not found`);
        if (command.status !== 'active' && command.status !== 'inactive') {
          return new DomainError('validation', 'Please correct the highlighted fields', {
            status: "Status must be 'active' or 'inactive'",
          });
        }
        if (state.status === command.status) return [];
        return [{ type: 'MasterItemStatusChanged', data: { master, id, status: command.status } }];
      }
    }
  },
};
