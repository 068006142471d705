import { Box, Button, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { DataTable, DateInput, List, Pagination, SelectInput, TextInput, Title, useListContext, usePermissions } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { ALL_STATUSES, RFP_STATUSES } from '../../../domain/src/rfp/model';
import { formatDate } from '../../../domain/src/shared/format';
import { mayChangeRfps } from './access';
import { RFP_RESOURCE } from './api';
import { RFP_STATUS_LABELS, rfpTypeLabel } from './labels';
import { rfpViewPath, rfpWizardPath } from './paths';
import { RfpStatusChip } from './RfpStatusChip';
import type { RfpStaffListRow } from './types';

/** The API pages staff lists 25 at a time by default and 100 at most. */
export const RFP_DASHBOARD_PAGE_SIZES = [10, 25, 50, 100];
export const RFP_DASHBOARD_PAGE_SIZE = 25;

const STATUS_CHOICES = [
  { id: ALL_STATUSES, name: 'All' },
  ...RFP_STATUSES.map((s) => ({ id: s, name: RFP_STATUS_LABELS[s] })),
];

/**
 * Spec 001 §2 filters rfpCode, casshId, status and date. The date is a receive-date range; the API refuses a
 * start after the end or before the 61-day window (its message shows in the error dialog).
 */
const filters = [
  <TextInput key="rfpCode" source="rfpCode" label="RFP ID" alwaysOn resettable />,
  <TextInput key="casshId" source="casshId" label="Opportunity ID" alwaysOn resettable />,
  <SelectInput key="status" source="status" label="Status" choices={STATUS_CHOICES} alwaysOn emptyText="All" />,
  <DateInput key="dateFrom" source="dateFrom" label="Received from" alwaysOn />,
  <DateInput key="dateTo" source="dateTo" label="Received to" alwaysOn />,
];

export const RFP_DASHBOARD_TEXTS = {
  none: 'No RFPs found',
  noneFiltered: 'No RFPs found with the current filters.',
  clearFilters: 'Clear filters',
} as const;

/**
 * What the table says without rows. react-admin words it from the resource name ("No Rfps found"); the
 * console has no Resource for RFPs (custom routes) to give a label, so the text is set here.
 */
const NoRfps = () => {
  const { filterValues, setFilters } = useListContext();
  const filtered = Object.keys(filterValues ?? {}).length > 0;
  return (
    <Box sx={{ p: 2, display: 'flex', gap: 1, alignItems: 'center' }}>
      <Typography variant="body2">{filtered ? RFP_DASHBOARD_TEXTS.noneFiltered : RFP_DASHBOARD_TEXTS.none}</Typography>
      {filtered && (
        <Button size="small" onClick={() => setFilters({}, [])}>
          {RFP_DASHBOARD_TEXTS.clearFilters}
        </Button>
      )}
    </Box>
  );
};

/**
 * /rfp/MLL/dashboard: the staff RFP list (GET /api/rfps, scoped by the API to the user's company codes),
 * newest first, with the spec's opportunity table columns; a row opens the RFP's view.
 */
export const RfpDashboard = () => {
  const { permissions } = usePermissions<string[]>();
  return (
    <Box sx={{ mt: 1 }}>
      <Title title="RFP Dashboard" />
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
        <Typography variant="h5" component="h1">
          RFP Dashboard
        </Typography>
        {/* The RFP staff roles create RFPs; the Auditor only reads. */}
        {mayChangeRfps(permissions) && (
          <Button component={RouterLink} to={rfpWizardPath(1)} variant="contained" startIcon={<AddIcon />}>
            Create RFP
          </Button>
        )}
      </Box>
      <List
        resource={RFP_RESOURCE}
        storeKey="rfp-dashboard"
        filters={filters}
        perPage={RFP_DASHBOARD_PAGE_SIZE}
        sort={{ field: 'createdAt', order: 'DESC' }}
        pagination={<Pagination rowsPerPageOptions={RFP_DASHBOARD_PAGE_SIZES} />}
        title={false}
        actions={false}
        disableSyncWithLocation
        empty={false}
      >
        <DataTable
          empty={<NoRfps />}
          bulkActionButtons={false}
          rowClick={(_id, _resource, record) => rfpViewPath(String(record['rfpCode']), record['rfpType'] as string | null)}
        >
          <DataTable.Col source="serialNo" label="S.No" disableSort />
          <DataTable.Col source="rfpCode" label="RFP ID" disableSort />
          <DataTable.Col source="dueDate" label="Due Date" disableSort render={(r: RfpStaffListRow) => formatDate(r.dueDate)} />
          <DataTable.Col
            source="receiveDate"
            label="Receive Date"
            disableSort
            render={(r: RfpStaffListRow) => formatDate(r.receiveDate)}
          />
          <DataTable.Col source="status" label="Status" disableSort render={(r: RfpStaffListRow) => <RfpStatusChip status={r.status} />} />
          <DataTable.Col source="rfpType" label="RFP Type" disableSort render={(r: RfpStaffListRow) => rfpTypeLabel(r.rfpType)} />
        </DataTable>
      </List>
    </Box>
  );
};
