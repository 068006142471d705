import { Alert, Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { display, formatDateTime } from '../../../domain/src/shared/format';
import type { ActivityEntry, FieldChange } from '../shared/types';
import { fieldLabel, fieldOrder, fieldValue } from './labels';

const Changes = ({ changes }: { changes: Record<string, FieldChange> | null }) => {
  const entries = Object.entries(changes ?? {}).sort(([a], [b]) => fieldOrder(a) - fieldOrder(b));
  if (entries.length === 0) return <>—</>;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2 }}>
      {entries.map(([field, { before, after }]) => (
        <li key={field}>
          <Typography variant="body2" component="span">
            <strong>{fieldLabel(field)}</strong>: {display(fieldValue(field, before))} →{' '}
            {display(fieldValue(field, after))}
          </Typography>
        </li>
      ))}
    </Box>
  );
};

/**
 * The BA's activity log (spec 000 §1 "read an activity log per BA"): time, actor, role, action, the changed
 * fields before → after, and remarks. Auditors read the same table.
 */
export const ActivityLog = ({
  entries,
  isPending,
  error,
}: {
  entries: readonly ActivityEntry[] | undefined;
  isPending: boolean;
  error: unknown;
}) => {
  if (error) return <Alert severity="error">The activity log could not be loaded.</Alert>;
  if (isPending) return <Typography color="text.secondary">Loading…</Typography>;
  if (!entries || entries.length === 0) {
    return <Typography color="text.secondary">No activity yet.</Typography>;
  }
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label="Activity log">
        <TableHead>
          <TableRow>
            <TableCell>Time</TableCell>
            <TableCell>Actor</TableCell>
            <TableCell>Role</TableCell>
            <TableCell>Action</TableCell>
            <TableCell>Changes</TableCell>
            <TableCell>Remarks</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {entries.map((e) => (
            <TableRow key={e.id}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.at)}</TableCell>
              <TableCell>{e.actorName ?? 'System'}</TableCell>
              <TableCell>{e.role ?? '—'}</TableCell>
              <TableCell>{e.action}</TableCell>
              <TableCell>
                <Changes changes={e.changes} />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{e.remarks ?? '—'}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
};
