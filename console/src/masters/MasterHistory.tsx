import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { RecordContextProvider, useDataProvider, useRecordContext } from 'react-admin';
import { fieldOf, type MasterDefinition } from '../../../domain/src/masters/definitions';
import { formatDateTime } from '../../../domain/src/shared/format';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { SectionCard } from '../shared/SectionCard';
import { MasterStatusChip, ReferenceValue, plainValue } from './display';
import type { MasterChange, MasterItem } from './types';

const WHAT: Record<string, string> = {
  MasterItemCreated: 'Created',
  MasterItemChanged: 'Changed',
};

function what(change: MasterChange): string {
  if (change.type === 'MasterItemStatusChanged') return change.after['status'] === 'inactive' ? 'Deactivated' : 'Activated';
  return WHAT[change.type] ?? change.type;
}

/** One value of the history: references by their item's name, status as its chip, the rest as text. */
const Value = ({ def, name, value }: { def: MasterDefinition; name: string; value: unknown }) => {
  if (name === 'status') return <MasterStatusChip status={String(value)} />;
  const field = fieldOf(def, name);
  if (value !== null && value !== undefined && (field?.kind === 'ref' || field?.kind === 'refs')) {
    return (
      <RecordContextProvider value={{ id: name, [name]: value }}>
        <ReferenceValue field={field} />
      </RecordContextProvider>
    );
  }
  return <>{plainValue(field, value)}</>;
};

/** "Tax Rate (%): 2 → 1": each changed field with its value before and after; a creation lists the values. */
const Changes = ({ def, change }: { def: MasterDefinition; change: MasterChange }) => {
  const created = change.type === 'MasterItemCreated';
  const names = Object.keys(change.after);
  if (names.length === 0) return <>—</>;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2 }}>
      {names.map((name) => (
        <Box component="li" key={name} sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 0.5 }}>
          <Box component="span" sx={{ fontWeight: 500 }}>
            {name === 'status' ? 'Status' : (fieldOf(def, name)?.label ?? name)}:
          </Box>
          {!created && (
            <>
              <Value def={def} name={name} value={change.before[name]} />
              <Box component="span" aria-label="changed to">
                →
              </Box>
            </>
          )}
          <Value def={def} name={name} value={change.after[name]} />
        </Box>
      ))}
    </Box>
  );
};

/**
 * The item's change history from its event stream (GET /api/<resource>/:id/events), newest first: who
 * (name and role), when (Indian time), what, and each field before → after. An auditor sees who changed
 * a tax rate and when.
 */
export const MasterHistory = ({ def }: { def: MasterDefinition }) => {
  const item = useRecordContext<MasterItem>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data, isPending, error } = useQuery({
    queryKey: [def.resource, 'history', item?.id, item?.updatedAt],
    queryFn: () => dataProvider.getMasterHistory(def.resource, item!.id),
    enabled: item !== undefined,
  });
  if (!item) return null;
  const changes = [...(data ?? [])].reverse();
  return (
    <Box sx={{ p: 2 }}>
      <SectionCard title="Change history">
        {isPending ? (
          <Typography variant="body2" color="text.secondary">
            Loading…
          </Typography>
        ) : error ? (
          <Typography variant="body2" color="error">
            The history could not be loaded.
          </Typography>
        ) : changes.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            No changes recorded.
          </Typography>
        ) : (
          <Table size="small" aria-label="Change history">
            <TableHead>
              <TableRow>
                <TableCell>When</TableCell>
                <TableCell>Who</TableCell>
                <TableCell>What</TableCell>
                <TableCell>Before → after</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {changes.map((change) => (
                <TableRow key={change.id}>
                  <TableCell sx={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>{formatDateTime(change.at)}</TableCell>
                  <TableCell sx={{ verticalAlign: 'top' }}>
                    {change.who}
                    {change.role && (
                      <Typography variant="caption" color="text.secondary" component="div">
                        {change.role}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell sx={{ verticalAlign: 'top' }}>{what(change)}</TableCell>
                  <TableCell sx={{ verticalAlign: 'top' }}>
                    <Changes def={def} change={change} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </SectionCard>
    </Box>
  );
};
