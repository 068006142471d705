import { Chip } from '@mui/material';
import { ChipField, ReferenceArrayField, ReferenceField, SingleFieldList, TextField } from 'react-admin';
import {
  masterDefinition,
  type MasterField,
  type MasterStatus,
} from '../../../domain/src/masters/definitions';
import { MISSING } from '../../../domain/src/shared/format';

/** Active / Inactive, as the list and the edit page show an item's status. */
export const MasterStatusChip = ({ status }: { status: MasterStatus | string | undefined }) => (
  <Chip
    size="small"
    variant="outlined"
    label={status === 'inactive' ? 'Inactive' : 'Active'}
    color={status === 'inactive' ? 'default' : 'success'}
  />
);

/**
 * A plain value of a field as text: booleans Yes/No, enum values by their label, missing ones "NA".
 * References are shown by their item (ReferenceValue), not by id.
 */
export function plainValue(field: MasterField | undefined, value: unknown): string {
  if (value === null || value === undefined) return MISSING;
  if (field?.kind === 'bool' || typeof value === 'boolean') return value === true ? 'Yes' : value === false ? 'No' : String(value);
  if (field?.kind === 'enum') return field.options?.find((o) => o.id === value)?.name ?? String(value);
  if (Array.isArray(value)) return value.length === 0 ? MISSING : value.join(', ');
  if (value === '') return MISSING;
  return String(value);
}

/** A 'ref' or 'refs' value shown as the referenced items' display values (one batched request per page). */
export const ReferenceValue = ({ field }: { field: MasterField }) => {
  const target = masterDefinition(field.ref ?? '');
  if (field.kind === 'refs') {
    return (
      <ReferenceArrayField source={field.name} reference={target.resource} sort={{ field: target.display, order: 'ASC' }}>
        <SingleFieldList linkType={false}>
          <ChipField source={target.display} size="small" />
        </SingleFieldList>
      </ReferenceArrayField>
    );
  }
  return (
    <ReferenceField source={field.name} reference={target.resource} link={false} emptyText={MISSING}>
      <TextField source={target.display} />
    </ReferenceField>
  );
};
