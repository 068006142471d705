import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { baResponses } from '../../../projections/src/rfps/comparison';
import { renderConsole } from '../testing/fakes';
import { sapDataProvider, stubFetch } from '../vendor-code/testing';
import { laneComparison, rfpView, RFP_CODE } from './testing';

const user = userEvent.setup({ delay: null });
const base = `/api/rfps/${RFP_CODE}`;

/** The view's reads; the comparison answers per `view=`: groups, or the same groups per BA (the API's own fold). */
function serve() {
  return stubFetch((url) => {
    if (url.pathname === base) return { body: rfpView() };
    if (url.pathname === `${base}/lanes`) return { body: { rows: [], total: 0, round: 1, columns: [] } };
    if (url.pathname === `${base}/activity`) return { body: { rows: [], total: 0 } };
    if (url.pathname === `${base}/comparison`) {
      const by = url.searchParams.get('by');
      if (url.searchParams.get('view') === 'ba') {
        // As the API pages them: by BA, `perPage` from the query.
        const bas = baResponses(laneComparison().groups);
        const page = Number(url.searchParams.get('page') ?? 0);
        const perPage = Number(url.searchParams.get('perPage') ?? 10);
        return { body: { rfpCode: RFP_CODE, round: 1, by, total: bas.length, bas: bas.slice(page * perPage, (page + 1) * perPage) } };
      }
      return { body: laneComparison() };
    }
    return undefined;
  });
}

describe('BA-response comparison (RFP view, Responses tab)', () => {
  it('shows each BA’s groups with rate, rank and distance from the lowest, with the same groupings', async () => {
    const fetch = serve();
    renderConsole(`/rfp/MLL/view/${RFP_CODE}/standard`, { dataProvider: sapDataProvider(), roles: ['Auditor'] });
    await user.click(await screen.findByRole('tab', { name: 'Responses' }));
    await screen.findByRole('table', { name: 'Comparison' });
    await user.click(screen.getByRole('button', { name: 'BA responses' }));

    const table = await screen.findByRole('table', { name: 'BA responses' });
    const rows = within(table).getAllByRole('row').slice(1);
    // Patil is lowest on L0001; Sharma quoted both lanes and is lowest on L0002 (alone): one first rank each,
    // Sharma first for quoting more.
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual(['Sharma Roadways Pvt Ltd', 'Patil Carriers']);
    const sharma = within(rows[0]!).getAllByRole('listitem').map((li) => li.textContent);
    expect(sharma).toEqual([
      'L0001 · Pune → Bengaluru · 32 ft MXL: ₹45,000.00, rank 2 of 2, 9.76% above the lowest',
      'L0002 · Pune → Bengaluru · 32 ft MXL: ₹38,000.00, rank 1 of 1',
    ]);
    expect(within(rows[0]!).getAllByRole('cell').slice(1, 3).map((c) => c.textContent)).toEqual(['2', '1']);
    // The API pages the BAs: the first page of ten was asked for.
    const asked = fetch.mock.calls.map(([u]) => new URL(String(u), 'http://x').searchParams).find((q) => q.get('view') === 'ba');
    expect([asked?.get('page'), asked?.get('perPage')]).toEqual(['0', '10']);

    await user.click(screen.getByRole('button', { name: 'Location & vehicle' }));
    await waitFor(() =>
      expect(
        fetch.mock.calls.some(([u]) => {
          const q = new URL(String(u), 'http://x').searchParams;
          return q.get('view') === 'ba' && q.get('by') === 'location-vehicle';
        }),
      ).toBe(true),
    );
    // Back to the quotes: the group table again.
    await user.click(screen.getByRole('button', { name: 'Quotes' }));
    expect(await screen.findByRole('table', { name: 'Comparison' })).toBeInTheDocument();
  });
});
