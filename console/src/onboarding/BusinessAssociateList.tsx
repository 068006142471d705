import { Box } from '@mui/material';
import {
  DataTable,
  AutocompleteInput,
  FilterButton,
  List,
  ReferenceInput,
  Pagination,
  SearchInput,
  SelectInput,
  TextInput,
  TopToolbar,
  useGetIdentity,
} from 'react-admin';
import { formatDate } from '../../../domain/src/shared/format';
import type { BusinessAssociate } from '../shared/types';
import type { ConsoleIdentity } from '../providers/authProvider';
import { useCompanyLabel } from '../shared/companies';
import { BaFlags } from './BaFlags';
import { BaNameCell } from './BaNameCell';
import { OverdueMarker, StatusChip, stageLabel } from './StatusChip';
import { StatusTabs } from './StatusTabs';

/** Spec 000 §9: options 5, 10, 20; 10 rows by default. */
export const ROWS_PER_PAGE_OPTIONS = [5, 10, 20];
export const DEFAULT_ROWS_PER_PAGE = 10;

/** Company codes to filter by: only the caller's own (the API limits staff to them anyway). */
const CompanyCodeInput = (props: { source: string; label: string; alwaysOn?: boolean }) => {
  const { identity } = useGetIdentity();
  const companyLabel = useCompanyLabel();
  const codes = (identity as ConsoleIdentity | undefined)?.companyCodes ?? [];
  return <SelectInput {...props} choices={codes.map((code) => ({ id: code, name: companyLabel(code) }))} />;
};

/** The API's status filters (spec 000 §4 "BA list filters" and the issue-8 ones), as people read them. */
export const STATUS_FILTER_CHOICES = [
  { id: 'all', name: 'All' },
  { id: 'registered', name: 'Registered' },
  { id: 'inprogress', name: 'Pending onboarding' },
  { id: 'first', name: 'First stage' },
  { id: 'second', name: 'Second stage' },
  { id: 'verified', name: 'Verified' },
  { id: 'rejected', name: 'Rejected' },
  { id: 'processed', name: 'Processed (verified or rejected)' },
  { id: 'user_pending_task', name: 'My pending tasks' },
  { id: 'documents_expired', name: 'Documents expired' },
  { id: 'blocked', name: 'Blocked' },
];

/** Cities from the Cities master, searched as the user types (hundreds of them: no full list up front). */
const CityInput = (props: { source: string; label: string }) => (
  <ReferenceInput source={props.source} reference="cities" sort={{ field: 'name', order: 'ASC' }}>
    <AutocompleteInput label={props.label} optionText="name" filterToQuery={(q: string) => ({ q })} />
  </ReferenceInput>
);

/** A small master offered as a plain select (verticals, locations: tens of items). */
const MasterSelect = (props: { source: string; label: string; reference: string; optionText: string }) => (
  <ReferenceInput source={props.source} reference={props.reference} sort={{ field: 'id', order: 'ASC' }} perPage={100}>
    <SelectInput label={props.label} optionText={props.optionText} />
  </ReferenceInput>
);

/** The spec's BA list filters (spec 000 §5 "BA list GET"): each sent under the API's filter name. */
const baFilters = [
  <SearchInput key="q" source="q" placeholder="Search name, e-mail or mobile" alwaysOn />,
  <TextInput key="mobileNo" source="mobileNo" label="Mobile" parse={(v: string) => v.replace(/\D/g, '')} />,
  <TextInput key="companyName" source="companyName" label="Company name" />,
  <CityInput key="cityId" source="cityId" label="City" />,
  <SelectInput key="status" source="status" label="Status" choices={STATUS_FILTER_CHOICES} />,
  <TextInput key="panNumber" source="panNumber" label="PAN" parse={(v: string) => v.toUpperCase()} />,
  <MasterSelect key="verticalId" source="verticalId" label="Vertical" reference="verticals" optionText="name" />,
  <MasterSelect key="locationId" source="locationId" label="Location" reference="locations" optionText="locationName" />,
  <CompanyCodeInput key="companyCode" source="companyCode" label="Company code" />,
];


const ListActions = () => (
  <TopToolbar>
    <FilterButton />
  </TopToolbar>
);

const Column = DataTable.Col<BusinessAssociate>;

/**
 * A narrow window scrolls the table inside its card instead of widening the whole page (react-admin's
 * layout grows to its content's width): width 0 + minWidth 100% keeps the table's own width out of the
 * page's sizing while it still fills the card.
 */
export const listSx = { '& .RaList-content': { overflowX: 'auto' } } as const;
export const tableSx = {
  width: 0,
  minWidth: '100%',
  overflowX: 'auto',
  '& .MuiTableCell-root': { px: 1.5 },
  '& td:not(:first-of-type), & th': { whiteSpace: 'nowrap' },
} as const;

/**
 * The BA list (spec 000 §2/§4): status tabs with count badges, the spec's filters, and one row per BA that
 * opens its page. Totals come from the API's Content-Range header.
 */
export const BusinessAssociateList = () => (
  <List
    title="Business Associates"
    filters={baFilters}
    actions={<ListActions />}
    sort={{ field: 'updatedAt', order: 'DESC' }}
    perPage={DEFAULT_ROWS_PER_PAGE}
    pagination={<Pagination rowsPerPageOptions={ROWS_PER_PAGE_OPTIONS} />}
    exporter={false}
    empty={false}
    sx={listSx}
  >
    <StatusTabs />
    <DataTable rowClick="show" bulkActionButtons={false} sx={tableSx}>
      <Column
        source="companyName"
        label="Company name"
        render={(r) => (
          <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center' }}>
            <BaNameCell ba={r} />
            <BaFlags ba={r} />
          </Box>
        )}
      />
      <Column source="panNumber" label="PAN" render={(r) => r.panNumber ?? 'NA'} />
      <Column source="cityName" label="City" render={(r) => r.cityName ?? 'NA'} />
      <Column source="companyCode" label="Company code" />
      <Column source="status" label="Status" render={(r) => <StatusChip status={r.status} />} />
      <Column
        source="stage"
        label="Stage"
        render={(r) => (
          <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
            {stageLabel(r.stage)}
            <OverdueMarker overdue={r.overdue} />
          </Box>
        )}
      />
      <Column source="submittedAt" label="Submitted" render={(r) => formatDate(r.submittedAt)} />
      <Column source="updatedAt" label="Updated" render={(r) => formatDate(r.updatedAt)} />
    </DataTable>
  </List>
);
