import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { deserialize, serialize } from 'node:v8';
import { completeDetails, fakeApi, problem, verifiedBaAdmin, type RecordedRequest } from '../testing/fakeApi';
import { renderPortal } from '../testing/render';
import type { Period, PerformanceBucket, PerformanceFigures, PerformanceReport } from './api';
import { formatDays, formatPercent } from './PerformanceDashboard';

const user = userEvent.setup({ delay: null });
const verifiedBa = { status: 'verified' as const, details: completeDetails, companyName: completeDetails.companyName };

// @mui/x-charts measures its container and clones its state; jsdom has neither ResizeObserver nor
// structuredClone (provided here only, for these tests: Node's serializer clones the same way).
beforeAll(() => {
  if (typeof globalThis.structuredClone !== 'function')
    Object.assign(globalThis, { structuredClone: <T,>(value: T): T => deserialize(serialize(value)) as T });
  class NoResize {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.assign(globalThis, { ResizeObserver: NoResize });
});

const figures = (over: Partial<PerformanceFigures> = {}): PerformanceFigures => ({
  rfpsInvited: 0,
  rfpsQuoted: 0,
  rfpsWon: 0,
  winRate: 0,
  lanesAwarded: 0,
  invoicesSubmitted: 0,
  invoicesReleased: 0,
  avgDaysToRelease: null,
  rejectedShare: 0,
  blocks: 0,
  ...over,
});

function report(period: Period): PerformanceReport {
  const keys: Record<Period, [string, string][]> = {
    month: [['2026-10', 'Oct 2026'], ['2026-11', 'Nov 2026']],
    quarter: [['2026-Q2', 'Q2 2026-27'], ['2026-Q3', 'Q3 2026-27']],
    year: [['2025-26', 'FY 2025-26'], ['2026-27', 'FY 2026-27']],
  };
  const buckets: PerformanceBucket[] = keys[period].map(([key, label], i) => ({ key, label, ...figures({ rfpsInvited: i + 1 }) }));
  return {
    baId: 'ba-1',
    period,
    buckets,
    totals: figures({
      rfpsInvited: period === 'year' ? 1250 : 12,
      rfpsQuoted: 3,
      rfpsWon: 1,
      winRate: 33.33,
      lanesAwarded: 4,
      invoicesSubmitted: 8,
      invoicesReleased: 2,
      avgDaysToRelease: 7.75,
      rejectedShare: 12.5,
      blocks: 1,
    }),
    documents: { valid: 5, expiring: 1, expired: 2 },
  };
}

function dashboardApi(fail = false) {
  const intercept = (req: RecordedRequest) => {
    if (req.method !== 'GET' || !req.path.startsWith('/api/performance/')) return undefined;
    if (fail) return { status: 404, body: problem(404, 'Business associate not found') };
    return { status: 200, body: report((req.query.get('period') ?? 'month') as Period) };
  };
  return fakeApi({ session: verifiedBaAdmin, ba: verifiedBa, intercept });
}

const kpi = (label: string) => screen.getByTestId(`kpi-${label}`).textContent;

describe('PerformanceDashboard', () => {
  it('shows the month totals as KPI cards, the charts and the documents of the BA itself', async () => {
    const api = dashboardApi();
    renderPortal(api, '/performance-dashboard');
    expect(await screen.findByRole('heading', { name: 'Performance Dashboard', level: 1 })).toBeInTheDocument();
    await screen.findByTestId('kpi-RFPs invited');
    expect(api.sent('GET', '/api/performance/ba-1')[0]?.query.get('period')).toBe('month');
    expect(kpi('RFPs invited')).toBe('12');
    expect(kpi('Win rate')).toBe('33.33%');
    expect(kpi('Average days to release')).toBe('7.75 days');
    expect(kpi('Invoices rejected')).toBe('12.5%');
    expect(kpi('Blocks')).toBe('1');
    for (const chart of ['RFPs', 'Win rate (%)', 'Invoices', 'Lanes awarded and blocks'])
      expect(screen.getByRole('region', { name: chart })).toBeInTheDocument();
    expect(within(screen.getByTestId('documents')).getByText('Expired: 2')).toBeInTheDocument();
    expect(screen.getByText('Expiring within 30 days: 1')).toBeInTheDocument();
  });

  it('asks for quarters and years when the period changes, with Indian digit grouping', async () => {
    const api = dashboardApi();
    renderPortal(api, '/performance-dashboard/BA Admin');
    await screen.findByTestId('kpi-RFPs invited');
    await user.click(screen.getByRole('button', { name: 'Quarter' }));
    await waitFor(() => expect(api.sent('GET', '/api/performance/ba-1').map((r) => r.query.get('period'))).toContain('quarter'));
    await user.click(screen.getByRole('button', { name: 'Year' }));
    await waitFor(() => expect(kpi('RFPs invited')).toBe('1,250'));
    expect(screen.getByRole('button', { name: 'Year' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('shows the refusal when the figures cannot be read', async () => {
    renderPortal(dashboardApi(true), '/performance-dashboard');
    expect(await screen.findByText('Business associate not found')).toBeInTheDocument();
    expect(screen.queryByTestId('kpi-RFPs invited')).not.toBeInTheDocument();
  });

  it('formats days and percentages', () => {
    expect(formatDays(null)).toBe('NA');
    expect(formatDays(12.345)).toBe('12.35 days');
    expect(formatPercent(100)).toBe('100%');
  });
});
