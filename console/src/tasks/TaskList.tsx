import { DataTable, List, Pagination, type RowClickFunction } from 'react-admin';
import { formatAge, formatDateTime } from '../../../domain/src/shared/format';
import type { ReviewTask } from '../shared/types';
import { OverdueMarker, stageLabel } from '../onboarding/StatusChip';
import { BaNameCell } from '../onboarding/BaNameCell';
import {
  DEFAULT_ROWS_PER_PAGE,
  ROWS_PER_PAGE_OPTIONS,
  listSx,
  tableSx,
} from '../onboarding/BusinessAssociateList';

const Column = DataTable.Col<ReviewTask>;

/** A task row opens the BA it is about, where the Approve and Reject buttons are. */
const openBa: RowClickFunction = (_id, _resource, task) =>
  `/business-associates/${encodeURIComponent(String((task as ReviewTask).baId))}/show`;

/**
 * "My Pending Task" (spec 000 §2 "Sidebars"): the reviews waiting for one of the caller's roles, oldest
 * first, with their age and SLA due time; overdue ones are marked.
 */
export const TaskList = () => (
  <List
    title="My Pending Task"
    sort={{ field: 'createdAt', order: 'ASC' }}
    perPage={DEFAULT_ROWS_PER_PAGE}
    pagination={<Pagination rowsPerPageOptions={ROWS_PER_PAGE_OPTIONS} />}
    exporter={false}
    actions={false}
    empty={false}
    sx={listSx}
  >
    <DataTable rowClick={openBa} bulkActionButtons={false} sx={tableSx}>
      <Column source="companyName" label="BA name" render={(t) => <BaNameCell ba={t} />} />
      <Column source="stage" label="Stage" render={(t) => stageLabel(t.stage)} />
      <Column source="companyCode" label="Company code" />
      <Column source="ageSeconds" label="Age" render={(t) => formatAge(t.ageSeconds)} />
      <Column source="slaDueAt" label="SLA due" render={(t) => formatDateTime(t.slaDueAt)} />
      <Column source="overdue" label="Overdue" render={(t) => <OverdueMarker overdue={t.overdue} />} />
    </DataTable>
  </List>
);
