import {
  AutocompleteInput,
  CreateButton,
  DataTable,
  FilterButton,
  List,
  Pagination,
  ReferenceInput,
  SearchInput,
  SelectInput,
  TopToolbar,
} from 'react-admin';
import { masterDefinition, type MasterDefinition, type MasterField } from '../../../domain/src/masters/definitions';
import { formatDateTime } from '../../../domain/src/shared/format';
import { listSx, tableSx } from '../onboarding/BusinessAssociateList';
import { MasterStatusChip, ReferenceValue, plainValue } from './display';
import { ExportButton } from './ExportButton';
import { ImportButton } from './ImportButton';
import { masterCreatePath, masterEditPath } from './paths';
import { StatusButton } from './StatusButton';
import type { MasterItem } from './types';

/** Spec 000 §9: "metadata tables default to 100 rows". */
export const MASTERS_PER_PAGE = 100;
export const MASTERS_PER_PAGE_OPTIONS = [25, 50, 100];

export const STATUS_FILTER_CHOICES = [
  { id: 'active', name: 'Active' },
  { id: 'inactive', name: 'Inactive' },
];

/** Long text (an e-mail body) is read on the item's page, not in a table cell. */
const listed = (def: MasterDefinition): readonly MasterField[] => def.fields.filter((f) => f.kind !== 'longtext');

/**
 * Search (`q`) and status are always shown ("All" is no status filter); every reference field can narrow
 * the list too (cities of one state), as the API takes `stateId` and its like as filters.
 */
function filtersOf(def: MasterDefinition) {
  const refs = def.fields.filter((f) => f.kind === 'ref');
  return [
    <SearchInput key="q" source="q" alwaysOn placeholder={`Search ${def.label.toLowerCase()}`} />,
    <SelectInput
      key="status"
      source="status"
      label="Status"
      choices={STATUS_FILTER_CHOICES}
      emptyText="All"
      alwaysOn
      // No status filter reads "All" rather than an empty box.
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    />,
    ...refs.map((field) => {
      const target = masterDefinition(field.ref ?? '');
      return (
        <ReferenceInput
          key={field.name}
          source={field.name}
          reference={target.resource}
          sort={{ field: target.display, order: 'ASC' }}
          perPage={100}
        >
          <AutocompleteInput label={field.label} optionText={target.display} filterToQuery={(q: string) => ({ q })} />
        </ReferenceInput>
      );
    }),
  ];
}

const ListActions = ({ def }: { def: MasterDefinition }) => (
  <TopToolbar>
    {def.fields.some((f) => f.kind === 'ref') && <FilterButton />}
    <CreateButton to={masterCreatePath(def)} />
    <ExportButton def={def} />
    <ImportButton def={def} />
  </TopToolbar>
);

const Column = DataTable.Col<MasterItem>;

const cell = (field: MasterField) => {
  if (field.kind === 'ref' || field.kind === 'refs') {
    return (
      <Column key={field.name} source={field.name} label={field.label} disableSort>
        <ReferenceValue field={field} />
      </Column>
    );
  }
  return (
    <Column
      key={field.name}
      source={field.name}
      label={field.label}
      render={(item) => plainValue(field, item[field.name])}
    />
  );
};

/**
 * One master's list (generic over its definition): 100 rows a page, search, status filter, sortable
 * columns; a row opens the item; Deactivate / Activate on each row; Export and Import above.
 */
export const MasterList = ({ def }: { def: MasterDefinition }) => (
  <List
    resource={def.resource}
    title={def.label}
    filters={filtersOf(def)}
    actions={<ListActions def={def} />}
    sort={{ field: def.display, order: 'ASC' }}
    perPage={MASTERS_PER_PAGE}
    pagination={<Pagination rowsPerPageOptions={MASTERS_PER_PAGE_OPTIONS} />}
    exporter={false}
    empty={false}
    sx={listSx}
  >
    <DataTable
      rowClick={(id) => masterEditPath(def, id)}
      bulkActionButtons={false}
      sx={tableSx}
    >
      {listed(def).map(cell)}
      <Column source="status" label="Status" render={(item) => <MasterStatusChip status={item.status} />} />
      <Column
        source="updatedAt"
        label="Last changed"
        render={(item) => formatDateTime(item.updatedAt ?? null)}
      />
      <Column label="" disableSort render={() => <StatusButton def={def} />} />
    </DataTable>
  </List>
);
