import { useState } from 'react';
import { Alert, CircularProgress, Table, TableBody, TableCell, TableContainer, TableHead, TablePagination, TableRow, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { display } from '../../../domain/src/shared/format';
import { errorText } from '../providers/httpClient';
import { fetchLanes } from './api';

export const LANE_PAGE_SIZES = [25, 50, 100];

/** The RFP's lanes (GET /lanes), a page at a time: an RFP holds up to 10,000 of them. MLL columns only. */
export const RfpLanesTab = ({ code }: { code: string }) => {
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(LANE_PAGE_SIZES[0]!);
  const lanes = useQuery({
    queryKey: ['rfps', code, 'lanes', page, perPage],
    queryFn: () => fetchLanes(code, page, perPage),
    placeholderData: keepPreviousData,
    retry: false,
  });
  if (lanes.isPending) return <CircularProgress size={20} />;
  if (lanes.isError) return <Alert severity="error">{errorText(lanes.error)}</Alert>;
  const columns = lanes.data.columns.filter((c) => c.owner === 'mll');
  if (lanes.data.total === 0) return <Typography color="text.secondary">No lanes uploaded yet.</Typography>;
  return (
    <>
      <TableContainer sx={{ maxHeight: 560 }}>
        <Table size="small" stickyHeader aria-label="Lanes">
          <TableHead>
            <TableRow>
              <TableCell>Lane ID</TableCell>
              {columns.map((c) => (
                <TableCell key={c.key}>{c.label}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {lanes.data.rows.map((lane) => (
              <TableRow key={lane.laneId}>
                <TableCell>{lane.laneId}</TableCell>
                {columns.map((c) => (
                  <TableCell key={c.key}>{display(lane.values[c.key])}</TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={lanes.data.total}
        page={page}
        rowsPerPage={perPage}
        rowsPerPageOptions={LANE_PAGE_SIZES}
        onPageChange={(_e, next) => setPage(next)}
        onRowsPerPageChange={(e) => {
          setPerPage(Number(e.target.value));
          setPage(0);
        }}
      />
    </>
  );
};
