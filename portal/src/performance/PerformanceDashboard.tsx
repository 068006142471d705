import { useEffect, useMemo, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { useApi } from '../api/ApiContext';
import { isApiError, messageOf } from '../api/client';
import { useBa } from '../onboarding/BaContext';
import { performanceApi, type Period, type PerformanceFigures, type PerformanceReport } from './api';


const PERIOD_LABELS: Record<Period, string> = { month: 'Month', quarter: 'Quarter', year: 'Year' };
const CHART_HEIGHT = 260;

/** Whole numbers with Indian digit grouping (1,00,000); percentages and days with up to 2 decimals. */
const number = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2 });
export const formatCount = (n: number): string => number.format(n);
export const formatPercent = (n: number): string => `${number.format(n)}%`;
export const formatDays = (n: number | null): string => (n === null ? 'NA' : `${number.format(n)} days`);

type Kpi = { label: string; value: string };
const kpisOf = (t: PerformanceFigures): Kpi[] => [
  { label: 'RFPs invited', value: formatCount(t.rfpsInvited) },
  { label: 'RFPs quoted', value: formatCount(t.rfpsQuoted) },
  { label: 'RFPs won', value: formatCount(t.rfpsWon) },
  { label: 'Win rate', value: formatPercent(t.winRate) },
  { label: 'Lanes awarded', value: formatCount(t.lanesAwarded) },
  { label: 'Invoices submitted', value: formatCount(t.invoicesSubmitted) },
  { label: 'Invoices released', value: formatCount(t.invoicesReleased) },
  { label: 'Average days to release', value: formatDays(t.avgDaysToRelease) },
  { label: 'Invoices rejected', value: formatPercent(t.rejectedShare) },
  { label: 'Blocks', value: formatCount(t.blocks) },
];

/**
 * '/performance-dashboard' and '/performance-dashboard/:role' (spec 001 §2, BA roles): the BA's RFPs, lanes,
 * invoices, documents and blocks by month, quarter or financial year, from GET /api/performance/:baId. The
 * role segment of the old route is accepted and changes nothing: a BA sees its own figures whatever its role.
 */
export function PerformanceDashboard() {
  const client = useApi();
  const api = useMemo(() => performanceApi(client), [client]);
  const { ba } = useBa();
  const [period, setPeriod] = useState<Period>('month');
  const [report, setReport] = useState<PerformanceReport | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setError(null);
    api.performance(String(ba.id), period).then(
      (answer) => live && setReport(answer),
      (e: unknown) => {
        if (!live || (isApiError(e) && e.status === 401)) return;
        setError(messageOf(e));
      },
    );
    return () => {
      live = false;
    };
  }, [api, ba.id, period]);

  const current = report?.period === period ? report : null;
  const labels = current?.buckets.map((b) => b.label) ?? [];

  return (
    <Stack spacing={3}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
        <Typography variant="h5" component="h1">
          Performance Dashboard
        </Typography>
        <ToggleButtonGroup
          exclusive
          size="small"
          color="primary"
          value={period}
          aria-label="Period"
          onChange={(_e, value: Period | null) => value && setPeriod(value)}
        >
          {(Object.keys(PERIOD_LABELS) as Period[]).map((p) => (
            <ToggleButton key={p} value={p}>
              {PERIOD_LABELS[p]}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Stack>
      {error && <Alert severity="error">{error}</Alert>}
      {current && (
        <>
          <Grid container spacing={2} component="section" aria-label="Totals">
            {kpisOf(current.totals).map((k) => (
              <Grid key={k.label} size={{ xs: 6, sm: 4, md: 2.4 }}>
                <Card variant="outlined" sx={{ height: '100%' }}>
                  <CardContent>
                    <Typography variant="body2" color="text.secondary">
                      {k.label}
                    </Typography>
                    <Typography variant="h6" component="p" data-testid={`kpi-${k.label}`}>
                      {k.value}
                    </Typography>
                  </CardContent>
                </Card>
              </Grid>
            ))}
          </Grid>
          <Grid container spacing={2}>
            <ChartCard title="RFPs">
              <BarChart
                height={CHART_HEIGHT}
                xAxis={[{ scaleType: 'band', data: labels }]}
                series={[
                  { label: 'Invited', data: current.buckets.map((b) => b.rfpsInvited) },
                  { label: 'Quoted', data: current.buckets.map((b) => b.rfpsQuoted) },
                  { label: 'Won', data: current.buckets.map((b) => b.rfpsWon) },
                ]}
              />
            </ChartCard>
            <ChartCard title="Win rate (%)">
              <LineChart
                height={CHART_HEIGHT}
                xAxis={[{ scaleType: 'point', data: labels }]}
                yAxis={[{ min: 0, max: 100 }]}
                series={[{ label: 'Win rate', data: current.buckets.map((b) => b.winRate), valueFormatter: (v) => (v === null ? '' : formatPercent(v)) }]}
              />
            </ChartCard>
            <ChartCard title="Invoices">
              <BarChart
                height={CHART_HEIGHT}
                xAxis={[{ scaleType: 'band', data: labels }]}
                series={[
                  { label: 'Submitted', data: current.buckets.map((b) => b.invoicesSubmitted) },
                  { label: 'Released', data: current.buckets.map((b) => b.invoicesReleased) },
                ]}
              />
            </ChartCard>
            <ChartCard title="Lanes awarded and blocks">
              <BarChart
                height={CHART_HEIGHT}
                xAxis={[{ scaleType: 'band', data: labels }]}
                series={[
                  { label: 'Lanes awarded', data: current.buckets.map((b) => b.lanesAwarded) },
                  { label: 'Blocks', data: current.buckets.map((b) => b.blocks) },
                ]}
              />
            </ChartCard>
          </Grid>
          <Card variant="outlined" component="section" aria-label="Documents">
            <CardContent>
              <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
                Documents
              </Typography>
              <Stack direction="row" spacing={4} data-testid="documents">
                <Typography>Valid: {formatCount(current.documents.valid)}</Typography>
                <Typography>Expiring within 30 days: {formatCount(current.documents.expiring)}</Typography>
                <Typography color={current.documents.expired > 0 ? 'error' : undefined}>Expired: {formatCount(current.documents.expired)}</Typography>
              </Stack>
            </CardContent>
          </Card>
        </>
      )}
    </Stack>
  );
}

function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Grid size={{ xs: 12, md: 6 }}>
      <Card variant="outlined" component="section" aria-label={title}>
        <CardContent>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {title}
          </Typography>
          {children}
        </CardContent>
      </Card>
    </Grid>
  );
}
