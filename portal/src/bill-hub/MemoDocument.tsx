import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { display, formatDate, formatDateTime, formatInr } from '../../../domain/src/shared/format';
import type { MemoDetail } from './types';


/** The memo as a document: header, its invoices and totals, advance and balance. Shared by view and print. */
export function MemoDocument({ memo }: { memo: MemoDetail }) {
  const facts: [string, string][] = [
    ['Memo Number', memo.memoNumber],
    ['BA', display(memo.baName)],
    ['Company Code', memo.companyCode],
    ['Financial Year', memo.financialYear],
    ['From State', display(memo.fromStateName)],
    ['To State', display(memo.toStateName)],
    ['Submitted On', formatDateTime(memo.submittedAt)],
    ['Submitted By', display(memo.submittedBy?.name)],
    ['Comments', display(memo.comments)],
  ];
  return (
    <Box>
      <Grid container spacing={2} component="dl" sx={{ m: 0, mb: 2 }}>
        {facts.map(([label, value]) => (
          <Grid key={label} size={{ xs: 12, sm: 6, md: 4 }}>
            <Typography component="dt" variant="caption" color="text.secondary">
              {label}
            </Typography>
            <Typography component="dd" sx={{ m: 0, whiteSpace: 'pre-wrap' }}>
              {value}
            </Typography>
          </Grid>
        ))}
      </Grid>
      <Table size="small" aria-label="Memo invoices">
        <TableHead>
          <TableRow>
            <TableCell>Invoice Number</TableCell>
            <TableCell>Invoice Date</TableCell>
            <TableCell>Billing From → To</TableCell>
            <TableCell align="right">Taxable</TableCell>
            <TableCell align="right">CGST</TableCell>
            <TableCell align="right">SGST</TableCell>
            <TableCell align="right">IGST</TableCell>
            <TableCell align="right">TD</TableCell>
            <TableCell align="right">Net Payable</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {memo.invoices.map((i) => (
            <TableRow key={i.id}>
              <TableCell>{i.invoiceNumber}</TableCell>
              <TableCell>{formatDate(i.invoiceDate)}</TableCell>
              <TableCell>{`${display(i.billingFromCode)} → ${display(i.billingToCode)}`}</TableCell>
              <TableCell align="right">{formatInr(i.taxableAmount)}</TableCell>
              <TableCell align="right">{formatInr(i.cgst)}</TableCell>
              <TableCell align="right">{formatInr(i.sgst)}</TableCell>
              <TableCell align="right">{formatInr(i.igst)}</TableCell>
              <TableCell align="right">{formatInr(i.td)}</TableCell>
              <TableCell align="right">{formatInr(i.netPayable)}</TableCell>
            </TableRow>
          ))}
          <TableRow sx={{ '& td': { fontWeight: 600 } }}>
            <TableCell colSpan={3}>Total ({memo.invoiceCount} invoices)</TableCell>
            <TableCell align="right">{formatInr(memo.taxableAmount)}</TableCell>
            <TableCell align="right">{formatInr(memo.cgst)}</TableCell>
            <TableCell align="right">{formatInr(memo.sgst)}</TableCell>
            <TableCell align="right">{formatInr(memo.igst)}</TableCell>
            <TableCell align="right">{formatInr(memo.td)}</TableCell>
            <TableCell align="right">{formatInr(memo.netPayable)}</TableCell>
          </TableRow>
        </TableBody>
      </Table>
      <Box component="dl" sx={{ mt: 2, display: 'grid', gridTemplateColumns: 'max-content max-content', columnGap: 3, rowGap: 0.5 }}>
        <Typography component="dt">Total Amount</Typography>
        <Typography component="dd" sx={{ m: 0 }} data-testid="memo-total">
          {formatInr(memo.totalAmount)}
        </Typography>
        <Typography component="dt">Net Payable</Typography>
        <Typography component="dd" sx={{ m: 0 }}>
          {formatInr(memo.netPayable)}
        </Typography>
        <Typography component="dt">Advance Amount</Typography>
        <Typography component="dd" sx={{ m: 0 }} data-testid="memo-advance">
          {formatInr(memo.advanceAmount)}
        </Typography>
        <Typography component="dt">Balance</Typography>
        <Typography component="dd" sx={{ m: 0 }} data-testid="memo-balance">
          {formatInr(memo.balance)}
        </Typography>
      </Box>
    </Box>
  );
}
