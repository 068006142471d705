import { Box, Chip } from '@mui/material';
import {
  CreateButton,
  DataTable,
  FilterButton,
  List,
  Pagination,
  SearchInput,
  SelectInput,
  TopToolbar,
} from 'react-admin';
import type { StaffUser } from '../shared/types';
import { listSx, tableSx } from '../onboarding/BusinessAssociateList';
import { ASSIGNABLE_ROLES } from './access';

/** Spec 000 §9: administration tables show 100 rows by default. */
export const USERS_PER_PAGE = 100;
export const USERS_PER_PAGE_OPTIONS = [25, 50, 100];

export const STATUS_CHOICES = [
  { id: 'active', name: 'Active' },
  { id: 'blocked', name: 'Blocked' },
];

const userFilters = [
  <SearchInput key="q" source="q" placeholder="Search name or e-mail" alwaysOn />,
  <SelectInput key="status" source="status" label="Status" choices={STATUS_CHOICES} />,
  <SelectInput key="role" source="role" label="Role" choices={ASSIGNABLE_ROLES.map((r) => ({ id: r, name: r }))} />,
];

const ListActions = () => (
  <TopToolbar>
    <FilterButton />
    <CreateButton />
  </TopToolbar>
);

export const UserStatusChip = ({ status }: { status: StaffUser['status'] }) => (
  <Chip
    size="small"
    label={status === 'blocked' ? 'Blocked' : 'Active'}
    color={status === 'blocked' ? 'error' : 'success'}
    variant="outlined"
  />
);

/** "onboard: MLL-ADMIN": a user holds a role per application (spec 000 §3 userApps). */
const AccessChips = ({ user }: { user: StaffUser }) => (
  <Box component="span" sx={{ display: 'inline-flex', flexWrap: 'wrap', gap: 0.5 }}>
    {user.applications.map((a) => (
      <Chip key={`${a.appId}|${a.roleName}`} size="small" label={`${a.appId}: ${a.roleName}`} />
    ))}
  </Box>
);

const Column = DataTable.Col<StaffUser>;

/** The staff accounts the admin manages (those holding one of the admin's company codes); a row opens it. */
export const UserList = () => (
  <List
    title="Users"
    filters={userFilters}
    actions={<ListActions />}
    sort={{ field: 'name', order: 'ASC' }}
    perPage={USERS_PER_PAGE}
    pagination={<Pagination rowsPerPageOptions={USERS_PER_PAGE_OPTIONS} />}
    exporter={false}
    empty={false}
    sx={listSx}
  >
    <DataTable rowClick="edit" bulkActionButtons={false} sx={tableSx}>
      <Column source="name" label="Name" />
      <Column source="emailId" label="E-mail id" />
      <Column source="mobileNo" label="Mobile number" disableSort render={(u) => u.mobileNo ?? 'NA'} />
      <Column source="applications" label="Roles" disableSort render={(u) => <AccessChips user={u} />} />
      <Column source="companyCodes" label="Company codes" disableSort render={(u) => u.companyCodes.join(', ')} />
      <Column source="status" label="Status" render={(u) => <UserStatusChip status={u.status} />} />
    </DataTable>
  </List>
);
