import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { deserialize, serialize } from 'node:v8';
import type { Period } from '../../../projections/src/performance/periods';
import type { PerformanceFigures as Figures, PerformanceReport } from '../../../projections/src/performance/performance.queries';
import { PerformanceFigures } from './PerformanceFigures';
import { PerformancePanel } from './PerformancePanel';

const user = userEvent.setup({ delay: null });

// @mui/x-charts measures its container and clones its state: jsdom has neither (provided for these tests only).
beforeAll(() => {
  class NoResize {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.assign(globalThis, { ResizeObserver: NoResize });
  if (typeof globalThis.structuredClone !== 'function')
    Object.assign(globalThis, { structuredClone: <T,>(value: T): T => deserialize(serialize(value)) as T });
});

const figures = (over: Partial<Figures> = {}): Figures => ({
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

const report = (period: Period): PerformanceReport => ({
  baId: 'ba-1',
  period,
  buckets: [{ key: period === 'year' ? '2026-27' : '2026-11', label: period === 'year' ? 'FY 2026-27' : 'Nov 2026', ...figures({ rfpsInvited: 1500, rfpsQuoted: 3, rfpsWon: 1, winRate: 33.33 }) }],
  totals: figures({ rfpsInvited: 1500, rfpsQuoted: 3, rfpsWon: 1, winRate: 33.33, avgDaysToRelease: 4.5 }),
  documents: { valid: 4, expiring: 1, expired: 0 },
});

describe('console performance figures', () => {
  it('shows the buckets and totals with Indian grouping, and asks again per period', async () => {
    const load = jest.fn(async (_baId: string, period: Period) => report(period));
    render(<PerformanceFigures baId="ba-1" load={load} />);
    const table = await screen.findByRole('table', { name: 'Performance figures' });
    const total = within(table).getByRole('row', { name: /^Total/ });
    expect(within(total).getAllByRole('cell').map((c) => c.textContent)).toEqual(['1,500', '3', '1', '33.33%', '0', '0', '0', '4.5', '0%', '0']);
    expect(screen.getByTestId('performance-documents')).toHaveTextContent('4 valid, 1 expiring within 30 days, 0 expired');
    expect(load).toHaveBeenCalledWith('ba-1', 'month');
    await user.click(screen.getByRole('button', { name: 'Year' }));
    await waitFor(() => expect(screen.getByRole('rowheader', { name: 'FY 2026-27' })).toBeInTheDocument());
    expect(load).toHaveBeenLastCalledWith('ba-1', 'year');
  });

  it('shows the API refusal', async () => {
    render(<PerformanceFigures baId="ba-1" load={async () => Promise.reject(new Error('Business associate not found'))} />);
    expect(await screen.findByText('Business associate not found')).toBeInTheDocument();
  });

  it('asks for nothing until the card is opened', async () => {
    render(<PerformancePanel baId="ba-1" />);
    expect(screen.getByRole('button', { name: 'Show performance' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('button', { name: 'Month' })).not.toBeInTheDocument();
  });
});
