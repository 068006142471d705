import { Alert, Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useGetMany } from 'react-admin';
import { SYSTEM_ROLE } from '../../../domain/src/identity/roles';
import { display, formatDateTime } from '../../../domain/src/shared/format';
import type { ActivityEntry, FieldChange } from '../shared/types';
import {
  fieldLabel,
  fieldOrder,
  fieldValue,
  itemName,
  NAMED_ID_FIELDS,
  NAMED_MASTERS,
  type IdNames,
  type NamedItem,
  type NamedMaster,
} from './labels';

/** The ids of one master named anywhere in the log's changes (single ids and lists of them). */
const idsIn = (entries: readonly ActivityEntry[] | undefined, master: NamedMaster): number[] => {
  const fields = Object.entries(NAMED_ID_FIELDS)
    .filter(([, resource]) => resource === master)
    .map(([field]) => field);
  const values = (entries ?? []).flatMap((e) => fields.flatMap((f) => [e.changes?.[f]?.before, e.changes?.[f]?.after]));
  return [...new Set(values.flat().filter((v): v is number => typeof v === 'number'))];
};

/** Names for the master ids in the log, from the masters (one request per master, always in the same order). */
function useIdNames(entries: readonly ActivityEntry[] | undefined): IdNames {
  const loaded = new Map<NamedMaster, ReadonlyMap<number, string>>();
  for (const master of NAMED_MASTERS) {
    // A fixed list, so the hooks run in the same order on every render.
    const { data } = useGetMany<NamedItem>(master, { ids: idsIn(entries, master) });
    loaded.set(master, new Map((data ?? []).map((r) => [r.id, itemName(r, r.id)])));
  }
  const names: IdNames = {};
  for (const [field, master] of Object.entries(NAMED_ID_FIELDS)) names[field] = loaded.get(master);
  return names;
}

const Changes = ({ changes, names }: { changes: Record<string, FieldChange> | null; names: IdNames }) => {
  const entries = Object.entries(changes ?? {}).sort(([a], [b]) => fieldOrder(a) - fieldOrder(b));
  if (entries.length === 0) return <>—</>;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2 }}>
      {entries.map(([field, { before, after }]) => (
        <li key={field}>
          <Typography variant="body2" component="span">
            <strong>{fieldLabel(field)}</strong>: {display(fieldValue(field, before, names))} →{' '}
            {display(fieldValue(field, after, names))}
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
  const names = useIdNames(entries);
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
              <TableCell>{e.role === SYSTEM_ROLE ? 'System' : (e.role ?? '—')}</TableCell>
              <TableCell>{e.action}</TableCell>
              <TableCell>
                <Changes changes={e.changes} names={names} />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{e.remarks ?? '—'}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
};
