import { useEffect, useState } from 'react';
import { Alert, Stack, Table, TableBody, TableCell, TableHead, TableRow, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import type { Period } from '../../../projections/src/performance/periods';
import type { PerformanceFigures as Figures, PerformanceReport } from '../../../projections/src/performance/performance.queries';
import { API_URL, errorText, httpClient } from '../providers/httpClient';

const PERIODS: [Period, string][] = [
  ['month', 'Month'],
  ['quarter', 'Quarter'],
  ['year', 'Year'],
];

/** Counts with Indian digit grouping; rates and days with up to 2 decimals. */
const number = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2 });

const COLUMNS: [string, (f: Figures) => string][] = [
  ['RFPs invited', (f) => number.format(f.rfpsInvited)],
  ['Quoted', (f) => number.format(f.rfpsQuoted)],
  ['Won', (f) => number.format(f.rfpsWon)],
  ['Win rate', (f) => `${number.format(f.winRate)}%`],
  ['Lanes awarded', (f) => number.format(f.lanesAwarded)],
  ['Invoices submitted', (f) => number.format(f.invoicesSubmitted)],
  ['Released', (f) => number.format(f.invoicesReleased)],
  ['Avg days to release', (f) => (f.avgDaysToRelease === null ? 'NA' : number.format(f.avgDaysToRelease))],
  ['Rejected', (f) => `${number.format(f.rejectedShare)}%`],
  ['Blocks', (f) => number.format(f.blocks)],
];

export const fetchPerformance = async (baId: string, period: Period): Promise<PerformanceReport> =>
  (await httpClient(`${API_URL}/performance/${encodeURIComponent(baId)}?period=${period}`)).json as PerformanceReport;

/** One BA's performance by month, quarter or financial year: a chart of RFPs and invoices and the figures. */
export const PerformanceFigures = ({ baId, load = fetchPerformance }: { baId: string; load?: typeof fetchPerformance }) => {
  const [period, setPeriod] = useState<Period>('month');
  const [report, setReport] = useState<PerformanceReport | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setError(null);
    load(baId, period).then(
      (answer) => live && setReport(answer),
      (e: unknown) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [baId, period, load]);

  const current = report?.period === period ? report : null;
  return (
    <Stack spacing={2}>
      <ToggleButtonGroup exclusive size="small" value={period} aria-label="Period" onChange={(_e, v: Period | null) => v && setPeriod(v)}>
        {PERIODS.map(([value, label]) => (
          <ToggleButton key={value} value={value}>
            {label}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {error && <Alert severity="error">{error}</Alert>}
      {current && (
        <>
          <BarChart
            height={240}
            xAxis={[{ scaleType: 'band', data: current.buckets.map((b) => b.label) }]}
            series={[
              { label: 'RFPs invited', data: current.buckets.map((b) => b.rfpsInvited) },
              { label: 'RFPs won', data: current.buckets.map((b) => b.rfpsWon) },
              { label: 'Invoices submitted', data: current.buckets.map((b) => b.invoicesSubmitted) },
              { label: 'Invoices released', data: current.buckets.map((b) => b.invoicesReleased) },
            ]}
          />
          <Table size="small" aria-label="Performance figures">
            <TableHead>
              <TableRow>
                <TableCell>Period</TableCell>
                {COLUMNS.map(([label]) => (
                  <TableCell key={label} align="right">
                    {label}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {[...current.buckets, { key: 'total', label: 'Total', ...current.totals }].map((b) => (
                <TableRow key={b.key}>
                  <TableCell component="th" scope="row">
                    {b.label}
                  </TableCell>
                  {COLUMNS.map(([label, cell]) => (
                    <TableCell key={label} align="right">
                      {cell(b)}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <Typography variant="body2" data-testid="performance-documents">
            Documents: {current.documents.valid} valid, {current.documents.expiring} expiring within 30 days, {current.documents.expired} expired
          </Typography>
        </>
      )}
    </Stack>
  );
};
