import { Box, Link as MuiLink, Typography } from '@mui/material';
import type { MouseEvent } from 'react';
import {
  AutocompleteInput,
  DataTable,
  FilterButton,
  List,
  Pagination,
  ReferenceInput,
  SelectInput,
  TextInput,
  TopToolbar,
} from 'react-admin';
import { Link } from 'react-router-dom';
import { formatDateTime } from '../../../domain/src/shared/format';
import { BaNameCell } from '../onboarding/BaNameCell';
import { baLabel } from '../onboarding/baName';
import { DEFAULT_ROWS_PER_PAGE, ROWS_PER_PAGE_OPTIONS, listSx, tableSx } from '../onboarding/BusinessAssociateList';
import type { BusinessAssociate } from '../shared/types';
import { istLocalToIso, isoToIstLocal } from './istTime';
import type { AuditActivityEntry } from './types';
import { VerifyChainButton } from './VerifyChainButton';

/** The react-admin resource: GET /api/audit/activity through ra-data-simple-rest. */
export const AUDIT_SEARCH_RESOURCE = 'audit/activity';

/** The API matches an action by "contains": these cover every action the activity log writes. */
const ACTION_CHOICES = [
  { id: 'Registered', name: 'Registered' },
  { id: 'Company details saved', name: 'Company details saved' },
  { id: 'submitted for verification', name: 'Submitted or resubmitted' },
  { id: 'approved', name: 'Any stage approved' },
  { id: 'Stage 1 approved', name: 'Stage 1 approved' },
  { id: 'Stage 2 approved', name: 'Stage 2 approved' },
  { id: 'Verified', name: 'Verified' },
  { id: 'Rejected at stage', name: 'Rejected' },
  { id: 'Review overdue', name: 'Review overdue' },
];

/** A date-time picked in Indian time, stored in the filter as the ISO instant the API takes. */
const IstDateTimeInput = ({ source, label, endOfMinute = false }: { source: string; label: string; endOfMinute?: boolean }) => (
  <TextInput
    source={source}
    label={label}
    type="datetime-local"
    parse={(v: string) => istLocalToIso(v, endOfMinute)}
    format={(v: string | undefined) => isoToIstLocal(v)}
    slotProps={{ inputLabel: { shrink: true } }}
    helperText="Indian time"
  />
);

const filters = [
  <TextInput key="actor" source="actor" label="Actor (name or user id)" alwaysOn />,
  <SelectInput key="action" source="action" label="Action" choices={ACTION_CHOICES} alwaysOn />,
  <IstDateTimeInput key="from" source="from" label="From" />,
  <IstDateTimeInput key="to" source="to" label="To" endOfMinute />,
  <ReferenceInput key="baId" source="baId" reference="business-associates">
    <AutocompleteInput
      label="Business associate"
      optionText={(ba: BusinessAssociate) => baLabel(ba, String(ba.id))}
      filterToQuery={(q: string) => ({ q })}
    />
  </ReferenceInput>,
];

const Actions = () => (
  <TopToolbar sx={{ alignItems: 'center' }}>
    <FilterButton />
    <VerifyChainButton />
  </TopToolbar>
);

const baPage = (baId: string) => `/business-associates/${encodeURIComponent(baId)}/show`;
/** The link opens the BA; the click must not also count as a click on the row. */
const stop = (e: MouseEvent) => e.stopPropagation();

const Column = DataTable.Col<AuditActivityEntry>;

/**
 * "Audit search" (Auditor, MLL-ADMIN): every BA's activity log in one list, newest first, searched by actor,
 * action and time, within the caller's company codes. Each row names its BA and links to its page, where the
 * BA's own log, its events and its state as of any date are. "Verify chain" checks the whole hash chain.
 */
export const AuditSearch = () => (
  <List
    resource={AUDIT_SEARCH_RESOURCE}
    title="Audit search"
    filters={filters}
    actions={<Actions />}
    sort={{ field: 'at', order: 'DESC' }}
    perPage={DEFAULT_ROWS_PER_PAGE}
    pagination={<Pagination rowsPerPageOptions={ROWS_PER_PAGE_OPTIONS} />}
    exporter={false}
    empty={false}
    sx={listSx}
  >
    <DataTable rowClick={(_id, _resource, row) => baPage((row as AuditActivityEntry).baId)} bulkActionButtons={false} sx={tableSx}>
      <Column source="at" label="Time" render={(r) => formatDateTime(r.at)} />
      <Column
        source="companyName"
        label="Business associate"
        render={(r) => (
          <MuiLink component={Link} to={baPage(r.baId)} onClick={stop} aria-label={`Open ${baLabel(r, r.baId)}`}>
            <BaNameCell ba={r} />
          </MuiLink>
        )}
      />
      <Column
        source="actorName"
        label="Actor"
        render={(r) => (
          <Box component="span" sx={{ display: 'inline-flex', flexDirection: 'column' }}>
            <span>{r.actorName ?? r.actorUserId}</span>
            <Typography component="span" variant="caption" color="text.secondary">
              {r.role}
            </Typography>
          </Box>
        )}
      />
      <Column source="action" label="Action" />
      <Column source="remarks" label="Remarks" disableSort render={(r) => r.remarks ?? '—'} />
      <Column source="id" label="Position" />
    </DataTable>
  </List>
);
