import { useParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import GlobalStyles from '@mui/material/GlobalStyles';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { MemoDocument } from './MemoDocument';
import { useMemoDetail } from './useMemoDetail';

/**
 * Printing hides everything but the memo: the portal's header, the page's own buttons and the blocked
 * banner stay on screen only. The route sits inside the signed-in shell (its guard is the session's), so
 * the header is hidden by the print style rather than left out of the tree.
 */
const PRINT_CSS = {
  '@media print': {
    '.MuiAppBar-root, .bill-hub-no-print': { display: 'none !important' },
    'main.MuiContainer-root': { maxWidth: 'none', padding: 0 },
    body: { background: '#fff' },
  },
};

/** '/bill-hub/printMemo/:id' (spec 001 §2): a clean printable memo, "Print" and "Download PDF". */
export function PrintMemoPage() {
  const { id = '' } = useParams();
  const { memo, downloadPdf } = useMemoDetail(id);
  if (!memo) return null;
  return (
    <Box data-testid="print-memo">
      <GlobalStyles styles={PRINT_CSS} />
      <Stack direction="row" spacing={1} className="bill-hub-no-print" sx={{ mb: 2 }}>
        <Button variant="contained" onClick={() => window.print()}>
          Print
        </Button>
        <Button variant="outlined" onClick={() => void downloadPdf()}>
          Download PDF
        </Button>
        <Button onClick={() => window.history.back()}>Back</Button>
      </Stack>
      <Typography variant="h5" component="h1" gutterBottom>
        Memo {memo.memoNumber}
      </Typography>
      <MemoDocument memo={memo} />
    </Box>
  );
}
