import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { rfpMessages } from '../../../domain/src/rfp/messages';
import { RFP_LIST_FIRST_PAGE, RFP_LIST_PAGE_SIZE, RFP_LIST_PAGE_SIZES } from '../../../domain/src/rfp/model';
import { formatDate } from '../../../domain/src/shared/format';
import { useApi } from '../api/ApiContext';
import { isApiError, messageOf } from '../api/client';
import { useFeedback } from '../shared/feedback';
import { useListPager, type ListPaging } from '../shared/useListPager';
import { rfpApi, type RfpPage } from './api';
import { rfpBaViewPath } from './paths';
import { RfpStatusChip } from './status';

/** The API's RFP paging (domain/src/rfp/model.ts), the same as every BA list's. */
const RFP_LIST_PAGING: ListPaging = { firstPage: RFP_LIST_FIRST_PAGE, pageSize: RFP_LIST_PAGE_SIZE, pageSizes: RFP_LIST_PAGE_SIZES };

/** '/rfp/BA/dashboard' (spec 001 §2, §9): the RFPs floated to this BA, page 0 of 10 first, 5/10/20 a page. */
export function BaRfpDashboard() {
  const client = useApi();
  const api = useMemo(() => rfpApi(client), [client]);
  const { showError } = useFeedback();
  const navigate = useNavigate();
  const { page, pageSize, pager } = useListPager(RFP_LIST_PAGING);
  const [data, setData] = useState<RfpPage | null>(null);

  useEffect(() => {
    let live = true;
    api.list(page, pageSize).then(
      (answer) => live && setData(answer),
      (e: unknown) => {
        if (!live) return;
        setData({ rows: [], total: 0 });
        if (!(isApiError(e) && e.status === 401)) showError(messageOf(e));
      },
    );
    return () => {
      live = false;
    };
  }, [api, page, pageSize, showError]);

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        RFP Dashboard
      </Typography>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="RFPs">
          <TableHead>
            <TableRow>
              <TableCell>RFP ID</TableCell>
              <TableCell>Customer</TableCell>
              <TableCell>Due Date</TableCell>
              <TableCell>Status</TableCell>
              <TableCell align="right">Round</TableCell>
              <TableCell align="right">Quoted Lanes</TableCell>
              <TableCell align="right">Awarded Lanes</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data?.rows.map((row) => (
              <TableRow
                key={row.rfpCode}
                hover
                tabIndex={0}
                sx={{ cursor: 'pointer' }}
                onClick={() => navigate(rfpBaViewPath(row.rfpCode, row.rfpType))}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') navigate(rfpBaViewPath(row.rfpCode, row.rfpType));
                }}
              >
                <TableCell>{row.rfpCode}</TableCell>
                <TableCell>{row.customerName}</TableCell>
                <TableCell>{formatDate(row.dueDate)}</TableCell>
                <TableCell>
                  <RfpStatusChip status={row.status} />
                </TableCell>
                <TableCell align="right">{row.round}</TableCell>
                <TableCell align="right">{`${row.lanesQuoted} / ${row.laneCount}`}</TableCell>
                {/* No award yet in this round: nothing to count. */}
                <TableCell align="right">{row.lanesAwarded ?? '-'}</TableCell>
              </TableRow>
            ))}
            {data?.rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={7} align="center">
                  {rfpMessages.noRecords}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      {pager(data?.total ?? 0)}
    </Stack>
  );
}
