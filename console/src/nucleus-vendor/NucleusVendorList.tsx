import { Box, Button } from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { DataTable, List, Pagination, SearchInput, TextInput, TopToolbar, FilterButton, usePermissions } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { mayMassUpload } from '../vendor-code/access';
import { MASS_UPLOAD_PATH, nucleusViewPath } from '../vendor-code/paths';
import type { NucleusVendorRow } from '../vendor-code/types';
import { BlockedChip } from '../vendor-code/VendorCodeStatusChip';

const filters = [
  <SearchInput key="q" source="q" placeholder="Search name or PAN" alwaysOn />,
  <TextInput key="companyName" source="companyName" label="Company name" />,
  <TextInput key="pan" source="pan" label="PAN" parse={(v: string) => v.toUpperCase()} />,
  <TextInput key="vendorCode" source="vendorCode" label="Vendor code" />,
];

const Actions = () => {
  const { permissions } = usePermissions<string[]>();
  return (
    <TopToolbar>
      <FilterButton />
      {mayMassUpload(permissions) && (
        <Button component={RouterLink} to={MASS_UPLOAD_PATH} size="small" startIcon={<UploadFileIcon />}>
          Mass Upload
        </Button>
      )}
    </TopToolbar>
  );
};

const SOURCE_LABELS: Record<string, string> = { nucleus: 'Nucleus', 'sap-verified': 'SAP verified' };

/**
 * Nucleus vendors (in the ERP, not onboarded through the portal): GET /api/nucleus-vendors with the spec's
 * filters (company name, PAN, vendor code), scoped by company code; a row opens /sap/nucleus/view/:panNo.
 * `embedded`: the SAP dashboard's Nucleus tab (its own title and tabs are around it).
 */
export const NucleusVendorList = ({ embedded = false }: { embedded?: boolean }) => (
  <Box sx={{ mt: embedded ? 0 : 1 }}>
    <List
      resource="nucleus-vendors"
      storeKey="nucleus-vendors"
      filters={filters}
      actions={<Actions />}
      perPage={10}
      sort={{ field: 'updatedAt', order: 'DESC' }}
      pagination={<Pagination rowsPerPageOptions={[5, 10, 20]} />}
      title={embedded ? false : 'Nucleus Vendor Codes'}
      disableSyncWithLocation
      empty={false}
    >
      <DataTable
        bulkActionButtons={false}
        rowClick={(id, _resource, record) => nucleusViewPath(String(record['pan'] ?? id))}
      >
        <DataTable.Col source="pan" label="PAN" />
        <DataTable.Col source="name" label="Name" render={(r: NucleusVendorRow) => r.name ?? 'NA'} />
        <DataTable.Col source="companyCode" label="Company code" />
        <DataTable.Col source="city" label="City" disableSort render={(r: NucleusVendorRow) => r.city ?? 'NA'} />
        <DataTable.Col source="parentCode" label="Vendor code" render={(r: NucleusVendorRow) => r.parentCode ?? '—'} />
        <DataTable.Col source="source" label="Source" disableSort render={(r: NucleusVendorRow) => SOURCE_LABELS[r.source] ?? r.source} />
        <DataTable.Col label="Status" disableSort render={(r: NucleusVendorRow) => (r.blocked ? <BlockedChip blocked /> : 'Active')} />
      </DataTable>
    </List>
  </Box>
);
