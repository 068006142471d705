import type { DomainEvent } from '../shared/events';
import type { MasterStatus, MasterValues } from './definitions';

/**
 * Events of one master item, on stream `master-<resource>-<id>`. Event names are wire contracts: add new ones,
 * never rename. `id` is a number for masters with idKind 'int' and the code for idKind 'code' (companies).
 */
export type MasterItemId = number | string;

export type MasterItemCreated = DomainEvent<'MasterItemCreated', { master: string; id: MasterItemId; values: MasterValues }>;
/** Only the fields that changed, each with its value before and after (what an auditor reads). */
export type MasterItemChanged = DomainEvent<
  'MasterItemChanged',
  { master: string; id: MasterItemId; before: MasterValues; after: MasterValues }
>;
export type MasterItemStatusChanged = DomainEvent<
  'MasterItemStatusChanged',
  { master: string; id: MasterItemId; status: MasterStatus }
>;

export type MasterEvent = MasterItemCreated | MasterItemChanged | MasterItemStatusChanged;

export const MASTER_EVENT_TYPES = ['MasterItemCreated', 'MasterItemChanged', 'MasterItemStatusChanged'] as const;

export const isMasterEvent = (e: { type: string }): e is MasterEvent =>
  (MASTER_EVENT_TYPES as readonly string[]).includes(e.type);

export const MASTER_STREAM_PREFIX = 'master-';

export const masterItemStreamId = (resource: string, id: MasterItemId): string =>
  `${MASTER_STREAM_PREFIX}${resource}-${id}`;

export type MasterCommand =
  | { type: 'CreateMasterItem'; master: string; id: MasterItemId; values: MasterValues }
  /** Values may be partial: fields left out keep their value. */
  | { type: 'ChangeMasterItem'; master: string; id: MasterItemId; values: MasterValues }
  | { type: 'SetMasterItemStatus'; master: string; id: MasterItemId; status: MasterStatus };
