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

/**
 * A hash with the global position it belongs to: an event's own hash is at its position; its previous hash
 * is the hash of the event at the position just before it, which is often another BA's.
 */
const Hash = ({ value, position }: { value: string | null; position: number }) => (
  <Tooltip title={value ? `Hash at global position ${position}: ${value}` : 'first event of the store'}>
    <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
      <Box component="span" sx={{ color: 'text.secondary', fontSize: '0.8rem', mr: 0.5 }} data-testid="hash-position">
        #{position}
      </Box>
      <Box component="code" sx={{ fontFamily: 'monospace', fontSize: '0.8rem' }}>
        {short(value)}
      </Box>
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
  const position = Number(event.globalPosition);
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
          <Hash value={event.prevHash} position={position - 1} />
        </TableCell>
        <TableCell>
          <Hash value={event.hash} position={position} />
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

/** Why this BA's positions jump: said once above the table, so a gap never reads as a missing event. */
export const GlobalChainNote = () => (
  <Alert severity="info" sx={{ mb: 2 }} data-testid="global-chain-note">
    The hash chain is global: every event of every business associate is chained in one sequence, numbered by
    its global position. This business associate&apos;s events sit among other business associates&apos; events, so
    gaps between the positions below are expected and are not missing events. Each event&apos;s previous hash is
    the hash at the position just before it (#N−1), which usually belongs to another business associate.
    &quot;Verify chain&quot; on the Audit search page checks the whole chain against the signed anchors.
  </Alert>
);

/**
 * The BA's stored events as the event store holds them, with each event's hash and the hash it chains to
 * (design.md §2), each beside its global position. `npm run audit:verify` (and "Verify chain") checks the
 * whole chain; this view lets an auditor read one stream.
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
      <GlobalChainNote />
      <Table size="small" aria-label="Event history">
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox" />
            <TableCell>Global position</TableCell>
            <TableCell>Version</TableCell>
            <TableCell>Event</TableCell>
            <TableCell>Recorded</TableCell>
            <TableCell>Actor</TableCell>
            <TableCell>Previous hash (position)</TableCell>
            <TableCell>Hash (position)</TableCell>
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
