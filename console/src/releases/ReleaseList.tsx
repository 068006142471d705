import {
  CreateButton,
  DataTable,
  FilterButton,
  List,
  Pagination,
  SelectInput,
  TopToolbar,
} from 'react-admin';
import { formatDate } from '../../../domain/src/shared/format';
import {
  DEVICE_TYPE_LABELS,
  DEVICE_TYPES,
  FEATURE_CLASS_LABELS,
  FEATURE_CLASSES,
} from '../../../domain/src/releases/fields';
import { listSx, tableSx } from '../onboarding/BusinessAssociateList';
import type { Release } from './types';

export const DEVICE_TYPE_CHOICES = DEVICE_TYPES.map((id) => ({ id, name: DEVICE_TYPE_LABELS[id] }));
export const FEATURE_CLASS_CHOICES = FEATURE_CLASSES.map((id) => ({ id, name: FEATURE_CLASS_LABELS[id] }));

/** Spec 000 §9: administration tables show 100 rows by default. */
const PER_PAGE = 100;

const filters = [
  <SelectInput key="featureClass" source="featureClass" label="Shown to" choices={FEATURE_CLASS_CHOICES} />,
  <SelectInput key="deviceType" source="deviceType" label="Device type" choices={DEVICE_TYPE_CHOICES} />,
];

const ListActions = () => (
  <TopToolbar>
    <FilterButton />
    <CreateButton label="New release" />
  </TopToolbar>
);

const Column = DataTable.Col<Release>;

/** The published releases, newest first; a row opens its edit form (where it can also be withdrawn). */
export const ReleaseList = () => (
  <List
    title="Releases"
    filters={filters}
    actions={<ListActions />}
    sort={{ field: 'releasedOn', order: 'DESC' }}
    perPage={PER_PAGE}
    pagination={<Pagination rowsPerPageOptions={[25, 50, 100]} />}
    exporter={false}
    empty={false}
    sx={listSx}
  >
    <DataTable rowClick="edit" bulkActionButtons={false} sx={tableSx}>
      <Column source="versionReleased" label="Version" />
      <Column source="deviceType" label="Device type" render={(r) => DEVICE_TYPE_LABELS[r.deviceType]} />
      <Column source="featureClass" label="Shown to" render={(r) => FEATURE_CLASS_LABELS[r.featureClass]} />
      <Column source="releasedOn" label="Release date" render={(r) => formatDate(r.releasedOn)} />
      <Column source="newFeatures" label="New features" disableSort render={(r) => r.newFeatures.length} />
      <Column source="bugFixes" label="Bug fixes" disableSort render={(r) => r.bugFixes.length} />
    </DataTable>
  </List>
);
