import { useNavigate, useParams } from 'react-router-dom';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { display, formatDate, formatInr } from '../../../domain/src/shared/format';
import { MemoDocument } from './MemoDocument';
import { BILL_HUB_PATH, printMemoPath } from './paths';
import { useMemoDetail } from './useMemoDetail';

/** '/bill-hub/viewMemo/:id' (spec 001 §2): the memo, its invoices, totals, advances and balance. */
export function ViewMemoPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { memo, downloadPdf } = useMemoDetail(id);
  if (!memo) return null;
  return (
    <Stack spacing={3}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between' }}>
        <Typography variant="h5" component="h1">
          Memo {memo.memoNumber}
        </Typography>
        <Stack direction="row" spacing={1}>
          <Button variant="contained" onClick={() => navigate(printMemoPath(memo.id))}>
            Print
          </Button>
          <Button variant="outlined" onClick={() => void downloadPdf()}>
            Download PDF
          </Button>
          <Button onClick={() => navigate(BILL_HUB_PATH)}>Back</Button>
        </Stack>
      </Stack>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <MemoDocument memo={memo} />
      </Paper>
      {memo.advances.length > 0 && (
        <Stack spacing={1}>
          <Typography variant="h6" component="h2">
            Advance payments
          </Typography>
          <Paper variant="outlined">
            <Table size="small" aria-label="Advance payments">
              <TableHead>
                <TableRow>
                  <TableCell>Paid On</TableCell>
                  <TableCell>Reference</TableCell>
                  <TableCell align="right">Amount</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {memo.advances.map((a) => (
                  <TableRow key={a.advanceId}>
                    <TableCell>{formatDate(a.paidOn)}</TableCell>
                    <TableCell>{display(a.reference)}</TableCell>
                    <TableCell align="right">{formatInr(a.amount)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Paper>
        </Stack>
      )}
    </Stack>
  );
}
