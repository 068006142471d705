import { Fragment, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Box,
  IconButton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowRightIcon from '@mui/icons-material/KeyboardArrowRight';
import { useDataProvider, type Identifier } from 'react-admin';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { errorText } from '../providers/httpClient';
import { formatDateTime } from '../../../domain/src/shared/format';
import type { StoredEventRow } from '../shared/types';

const eventIdOf = (event: StoredEventRow): string => event.eventId ?? event.id ?? '';

const short = (hash: string | null) => (hash ? `${hash.slice(0, 12)}…` : '—');

const Hash = ({ value }: { value: string | null }) => (
  <Tooltip title={value ?? 'first event of the store'}>
    <Box component="code" sx={{ fontFamily: 'monospace', fontSize: '0.8rem' }}>
      {short(value)}
    </Box>
  </Tooltip>
);

const actorOf = (metadata: Record<string, unknown> | null): string => {
  const actor = metadata?.['actor'] as { userId?: string; name?: string; role?: string } | undefined;
  if (!actor) return '—';
  return [actor.name ?? actor.userId, actor.role ? `(${actor.role})` : null].filter(Boolean).join(' ');
};

const EventRow = ({ event }: { event: StoredEventRow }) => {
  const [open, setOpen] = useState(false);
  return (
    <Fragment>
      <TableRow hover>
        <TableCell padding="checkbox">
          <IconButton
            size="small"
            aria-label={open ? 'Hide event data' : 'Show event data'}
            onClick={() => setOpen(!open)}
          >
            {open ? <KeyboardArrowDownIcon /> : <KeyboardArrowRightIcon />}
          </IconButton>
        </TableCell>
        <TableCell>{String(event.globalPosition)}</TableCell>
        <TableCell>{event.version}</TableCell>
        <TableCell>{event.type}</TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(event.recordedAt)}</TableCell>
        <TableCell>{actorOf(event.metadata)}</TableCell>
        <TableCell>
          <Hash value={event.prevHash} />
        </TableCell>
        <TableCell>
          <Hash value={event.hash} />
        </TableCell>
      </TableRow>
      {open && (
        <TableRow>
          <TableCell colSpan={8} sx={{ bgcolor: 'action.hover' }}>
            <Typography variant="caption" color="text.secondary">
              Event id {eventIdOf(event)} · hash {event.hash}
            </Typography>
            <Box
              component="pre"
              sx={{ m: 0, mt: 1, fontSize: '0.8rem', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
            >
              {JSON.stringify({ data: event.data, metadata: event.metadata }, null, 2)}
            </Box>
          </TableCell>
        </TableRow>
      )}
    </Fragment>
  );
};

/**
 * The BA's stored events as the event store holds them, with each event's hash and the hash it chains to
 * (design.md §2). `npm run audit:verify` checks the whole chain; this view lets an auditor read one stream.
 */
export const EventHistory = ({ baId }: { baId: Identifier }) => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data, isPending, error } = useQuery({
    queryKey: ['business-associates', 'events', baId],
    queryFn: async () => {
      const events = await dataProvider.getEventHistory(baId);
      return Array.isArray(events) ? events : [];
    },
  });
  if (error) return <Alert severity="error" sx={{ whiteSpace: 'pre-wrap' }}>{errorText(error)}</Alert>;
  if (isPending) return <Typography color="text.secondary">Loading…</Typography>;
  if (data.length === 0) return <Typography color="text.secondary">No events.</Typography>;
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label="Event history">
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox" />
            <TableCell>Position</TableCell>
            <TableCell>Version</TableCell>
            <TableCell>Event</TableCell>
            <TableCell>Recorded</TableCell>
            <TableCell>Actor</TableCell>
            <TableCell>Previous hash</TableCell>
            <TableCell>Hash</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {data.map((event) => (
            <EventRow key={eventIdOf(event) || String(event.version)} event={event} />
          ))}
        </TableBody>
      </Table>
    </Box>
  );
};
