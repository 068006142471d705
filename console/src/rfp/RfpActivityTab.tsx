import { useState } from 'react';
import { Alert, CircularProgress, Table, TableBody, TableCell, TableHead, TablePagination, TableRow, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { formatDateTime } from '../../../domain/src/shared/format';
import { errorText } from '../providers/httpClient';
import { fetchActivity } from './api';

const ACTIVITY_PAGE_SIZE = 25;

/** The RFP's history, newest first (GET /activity): who did what in which round. Never a rate. */
export const RfpActivityTab = ({ code }: { code: string }) => {
  const [page, setPage] = useState(0);
  const activity = useQuery({
    queryKey: ['rfps', code, 'activity', page],
    queryFn: () => fetchActivity(code, page, ACTIVITY_PAGE_SIZE),
    placeholderData: keepPreviousData,
    retry: false,
  });
  if (activity.isPending) return <CircularProgress size={20} />;
  if (activity.isError) return <Alert severity="error">{errorText(activity.error)}</Alert>;
  if (activity.data.total === 0) return <Typography color="text.secondary">No activity yet.</Typography>;
  return (
    <>
      <Table size="small" aria-label="RFP activity">
        <TableHead>
          <TableRow>
            <TableCell>Time</TableCell>
            <TableCell align="right">Round</TableCell>
            <TableCell>By</TableCell>
            <TableCell>What</TableCell>
            <TableCell>Detail</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {activity.data.rows.map((row) => (
            <TableRow key={row.id}>
              <TableCell>{formatDateTime(row.at)}</TableCell>
              <TableCell align="right">{row.round}</TableCell>
              <TableCell>{row.actor.name ?? (row.actor.role === 'system' ? 'System' : row.actor.userId)}</TableCell>
              <TableCell>{row.action}</TableCell>
              <TableCell>{row.detail ?? '—'}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <TablePagination
        component="div"
        count={activity.data.total}
        page={page}
        rowsPerPage={ACTIVITY_PAGE_SIZE}
        rowsPerPageOptions={[ACTIVITY_PAGE_SIZE]}
        onPageChange={(_e, next) => setPage(next)}
      />
    </>
  );
};
