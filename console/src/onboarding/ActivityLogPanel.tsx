import { useState, type FormEvent } from 'react';
import { Box, Button, MenuItem, TablePagination, TextField } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDataProvider, type Identifier } from 'react-admin';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { ActivityLog } from './ActivityLog';
import type { ActivityLogQuery } from './items/types';

/** The log's status values (what an entry did; projections/src/activity-log statusOf), as people read them. */
export const ACTIVITY_STATUS_LABELS: Record<string, string> = {
  created: 'Created',
  updated: 'Updated',
  deleted: 'Deleted',
  submitted: 'Submitted',
  approved: 'Approved',
  rejected: 'Rejected',
  reminder: 'Expiry reminder',
  expired: 'Expired',
  overdue: 'Overdue',
  on_hold: 'Payments on hold',
  released: 'Payments released',
};

export const ACTIVITY_ROWS_PER_PAGE = [10, 20, 50];

type Filter = ActivityLogQuery['filter'];
type Draft = { action: string; q: string; status: string; from: string; to: string };
const EMPTY: Draft = { action: '', q: '', status: '', from: '', to: '' };

/** datetime-local (the user's local time) → ISO for the API; empty stays unset. */
const isoOf = (local: string): string | undefined => {
  if (!local) return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
};

export const toFilter = (d: Draft): Filter => ({
  action: d.action.trim() || undefined,
  q: d.q.trim() || undefined,
  status: d.status || undefined,
  from: isoOf(d.from),
  to: isoOf(d.to),
});

/**
 * The BA's activity log, newest first, a page at a time with the API's filters (activity, description text,
 * status, time range). Pages are counted from the API's total (Content-Range), so every entry is reachable:
 * nothing is cut off at a fixed number of rows.
 */
export const ActivityLogPanel = ({ baId }: { baId: Identifier }) => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [filter, setFilter] = useState<Filter>({});
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(ACTIVITY_ROWS_PER_PAGE[0]!);
  const query = useQuery({
    queryKey: ['business-associates', 'activity-log-page', String(baId), filter, page, perPage],
    queryFn: () => dataProvider.getActivityLogPage(baId, { filter, page, perPage }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const set = (field: keyof Draft) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [field]: e.target.value }));
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilter(toFilter(draft));
    setPage(0);
  };
  const clear = () => {
    setDraft(EMPTY);
    setFilter({});
    setPage(0);
  };
  return (
    <Box>
      <Box
        component="form"
        onSubmit={apply}
        aria-label="Activity log filters"
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 2, alignItems: 'center' }}
      >
        <TextField size="small" label="Activity" value={draft.action} onChange={set('action')} />
        <TextField size="small" label="Description" value={draft.q} onChange={set('q')} />
        <TextField
          size="small"
          select
          label="Status"
          value={draft.status}
          onChange={set('status')}
          sx={{ minWidth: 140 }}
          slotProps={{ htmlInput: { 'data-testid': 'activity-status' } }}
        >
          <MenuItem value="">Any</MenuItem>
          {Object.entries(ACTIVITY_STATUS_LABELS).map(([value, label]) => (
            <MenuItem key={value} value={value}>
              {label}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          type="datetime-local"
          label="From"
          value={draft.from}
          onChange={set('from')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          size="small"
          type="datetime-local"
          label="To"
          value={draft.to}
          onChange={set('to')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Button type="submit" variant="outlined">
          Apply filters
        </Button>
        <Button onClick={clear}>Clear</Button>
      </Box>
      <ActivityLog entries={query.data?.data} isPending={query.isPending} error={query.error} />
      <TablePagination
        component="div"
        count={query.data?.total ?? 0}
        page={page}
        onPageChange={(_e, next) => setPage(next)}
        rowsPerPage={perPage}
        rowsPerPageOptions={ACTIVITY_ROWS_PER_PAGE}
        onRowsPerPageChange={(e) => {
          setPerPage(Number(e.target.value));
          setPage(0);
        }}
      />
    </Box>
  );
};
