import { masterDefinition } from '../../../domain/src/masters/definitions';
import { optionListOf } from '../../../domain/src/masters/option-list';
import type { LaneColumn, LaneColumnType, RfpStep2 } from '../../../domain/src/rfp/model';
import { DomainError } from '../../../domain/src/shared/errors';
import { listMasterItems, type MasterItem } from '../../../projections/src/masters/masters.queries';
import type { Db } from '../../../projections/src/sql';
import { rfpRouteMessages } from './access';

/**
 * Step 2's chosen property keys become the lane sheet's columns (step 3 `headerData`), from the rfp-properties
 * master of the RFP's type, in the master's column order. The required flags of the (hire type, RFP type) pair
 * decide what "required" means here: `isRequiredByMll` false (a customer's own sheet) makes no MLL cell
 * required; `isRequiredByBa` asks a BA's bid to quote every lane (bid upload).
 */
export type RequiredFlags = { isRequiredByMll: boolean; isRequiredByBa: boolean };

/** A pair without a flags row asks what its properties say and lets a BA quote the lanes it serves. */
const DEFAULT_FLAGS: RequiredFlags = { isRequiredByMll: true, isRequiredByBa: false };

const EVERYTHING = { offset: 0, limit: 1000 };

export async function requiredFlagsOf(db: Db, step2: Pick<RfpStep2, 'vehicleHireType' | 'typeId'>): Promise<RequiredFlags> {
  const { rows } = await listMasterItems(db, masterDefinition('rfp-required-flags'), {
    status: 'active',
    refs: { hireTypeId: [step2.vehicleHireType], rfpTypeId: [step2.typeId] },
    sort: { field: 'id', order: 'ASC' },
    range: { offset: 0, limit: 1 },
  });
  const row = rows[0];
  return row ? { isRequiredByMll: row['isRequiredByMll'] === true, isRequiredByBa: row['isRequiredByBa'] === true } : DEFAULT_FLAGS;
}

const VALUE_TYPES: readonly LaneColumnType[] = ['text', 'number', 'select'];

function columnOf(item: MasterItem, flags: RequiredFlags): LaneColumn {
  const owner = item['owner'] === 'mll' ? 'mll' : 'ba';
  const declared = VALUE_TYPES.includes(item['valueType'] as LaneColumnType) ? (item['valueType'] as LaneColumnType) : 'text';
  const options = optionListOf(item['options'] as string | null | undefined);
  // A select without options cannot offer a choice: it is free text (masters notes).
  const type: LaneColumnType = declared === 'select' && options.length === 0 ? 'text' : declared;
  const isRequired = item['isRequired'] === true;
  return {
    key: String(item['key']),
    label: String(item['label']),
    owner,
    type,
    ...(type === 'select' ? { options } : {}),
    required: owner === 'mll' ? isRequired && flags.isRequiredByMll : isRequired,
  };
}

/**
 * The columns of step 2's choice: MLL and BA properties (dynamic info carries terms, not lane cells). A key that
 * is not an active property of the RFP type, or is chosen in the wrong list, is a 400 on that list.
 */
export async function headerDataFor(db: Db, step2: RfpStep2): Promise<{ columns: LaneColumn[]; flags: RequiredFlags }> {
  const [{ rows }, flags] = await Promise.all([
    listMasterItems(db, masterDefinition('rfp-properties'), {
      status: 'active',
      refs: { rfpTypeIds: [step2.typeId] },
      sort: { field: 'columnOrder', order: 'ASC' },
      range: EVERYTHING,
    }),
    requiredFlagsOf(db, step2),
  ]);
  const byKey = new Map(rows.map((r) => [String(r['key']), r]));
  const errors: Record<string, string> = {};
  const lists = [
    ['mllProperties', 'mll', step2.mllProperties],
    ['baProperties', 'ba', step2.baProperties],
    ['dynamicInfo', 'dynamic', step2.dynamicInfo],
  ] as const;
  for (const [list, owner, keys] of lists) {
    for (const key of keys) {
      const item = byKey.get(key);
      if (!item) errors[list] ??= rfpRouteMessages.unknownProperty(key);
      else if (item['owner'] !== owner) errors[list] ??= rfpRouteMessages.wrongOwner(key, list);
    }
  }
  if (Object.keys(errors).length > 0) throw new DomainError('validation', Object.values(errors)[0] as string, errors);
  const chosen = new Set([...step2.mllProperties, ...step2.baProperties]);
  // MLL columns first, then BA columns, each in the master's column order.
  const columns = (['mll', 'ba'] as const).flatMap((owner) =>
    rows.filter((r) => r['owner'] === owner && chosen.has(String(r['key']))).map((r) => columnOf(r, flags)),
  );
  return { columns, flags };
}
