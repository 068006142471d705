import { Box, Card, Chip, Tab, Tabs, Typography } from '@mui/material';
import { DataTable, List, Pagination, SearchInput, Title, useRecordContext } from 'react-admin';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { CountBadge } from '../layout/CountBadge';
import { NucleusVendorList } from '../nucleus-vendor/NucleusVendorList';
import { SAP_TABS, childSummary, isSapTab, type SapTabType } from './labels';
import { sapDashboardPath, sapViewPath } from './paths';
import type { VendorCodeRow } from './types';
import { useVendorCodeCounts } from './useVendorCodeCounts';
import { BlockedChip, VendorCodeStatusChip } from './VendorCodeStatusChip';

/** Spec 000 §9: options 5, 10, 20; 10 rows by default. */
export const SAP_ROWS_PER_PAGE = [5, 10, 20];

const StatusCell = () => {
  const row = useRecordContext<VendorCodeRow>();
  if (!row) return null;
  return (
    <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
      <VendorCodeStatusChip status={row.status} />
      {row.waitingForErp && <Chip size="small" color="warning" variant="outlined" label="Waiting for ERP" />}
      <BlockedChip blocked={row.blocked} />
    </Box>
  );
};

/** Name or PAN (the API's `q`, case-insensitive on both). */
const filters = [<SearchInput key="q" source="q" placeholder="Search name or PAN" alwaysOn />];

/** One tab's rows: GET /api/vendor-codes?filter={"tab":…,"q":…}, scoped by the API to the user's company codes. */
export const VendorCodeList = ({ tab }: { tab: Exclude<SapTabType, 'nucleus-vendor'> }) => (
  <List
    resource="vendor-codes"
    storeKey={`sap-dashboard-${tab}`}
    filter={{ tab }}
    filters={filters}
    perPage={10}
    sort={{ field: 'updatedAt', order: 'DESC' }}
    pagination={<Pagination rowsPerPageOptions={SAP_ROWS_PER_PAGE} />}
    title={false}
    actions={false}
    disableSyncWithLocation
    empty={false}
  >
    <DataTable
      bulkActionButtons={false}
      rowClick={(_id, _resource, record) => sapViewPath(String(record['baId']), String(record['companyCode']))}
    >
      <DataTable.Col source="companyName" label="Company name" render={(r: VendorCodeRow) => r.companyName ?? 'NA'} />
      <DataTable.Col source="panNumber" label="PAN" disableSort render={(r: VendorCodeRow) => r.panNumber ?? 'NA'} />
      <DataTable.Col source="companyCode" label="Company code" disableSort />
      <DataTable.Col source="status" label="Status">
        <StatusCell />
      </DataTable.Col>
      <DataTable.Col source="parentCode" label="Parent code" disableSort render={(r: VendorCodeRow) => r.parentCode ?? '—'} />
      <DataTable.Col label="Child codes" disableSort render={(r: VendorCodeRow) => childSummary(r)} />
      <DataTable.Col
        source="vendorCategory"
        label="Vendor category"
        disableSort
        render={(r: VendorCodeRow) => r.vendorCategory ?? '—'}
      />
    </DataTable>
  </List>
);

/**
 * /sap/dashboard/:type (spec 000 §2): tabs all, requested, verification pending, verified, processed and Nucleus
 * vendor, each with its count (GET /api/vendor-codes/counts), a name/PAN filter and the rows of that tab; a row
 * opens the BA's ERP page.
 */
export const SapDashboard = () => {
  const { type } = useParams<{ type?: string }>();
  const navigate = useNavigate();
  const counts = useVendorCodeCounts();
  if (!isSapTab(type)) return <Navigate to={sapDashboardPath('all')} replace />;
  return (
    <Box sx={{ mt: 1 }}>
      <Title title="SAP Dashboard" />
      <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
        SAP Dashboard
      </Typography>
      <Card variant="outlined" sx={{ mb: 1 }}>
        <Box sx={{ width: 0, minWidth: '100%' }}>
          <Tabs
            value={type}
            onChange={(_e, next: SapTabType) => navigate(sapDashboardPath(next))}
            variant="scrollable"
            scrollButtons="auto"
            aria-label="SAP dashboard"
          >
            {SAP_TABS.map((t) => (
              <Tab
                key={t.type}
                value={t.type}
                label={
                  <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center' }}>
                    {t.label}
                    <CountBadge count={counts?.[t.countKey]} label={t.label} />
                  </Box>
                }
              />
            ))}
          </Tabs>
        </Box>
      </Card>
      {type === 'nucleus-vendor' ? <NucleusVendorList key={type} embedded /> : <VendorCodeList key={type} tab={type} />}
    </Box>
  );
};

/** /sap/dashboard without a type: the All tab. */
export const SapDashboardHome = () => <Navigate to={sapDashboardPath('all')} replace />;
