import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MASTERS, masterDefinition } from '../../../domain/src/masters/definitions';
import { fakeDataProvider, renderConsole } from '../testing/fakes';
import { IMPORT_ERRORS_MESSAGE } from './ImportButton';
import { MASTERS_DASHBOARD_PATH, MORE_MASTERS, SIDEBAR_MASTERS, masterListPath } from './paths';
import { mastersProvider, renderMasters } from './testing';


const cities = masterDefinition('cities');

/** The downloads the page started, by name (saveFile clicks a link to an object URL). */
function captureDownloads() {
  const names: string[] = [];
  Object.assign(URL, { createObjectURL: jest.fn(() => 'blob:masters'), revokeObjectURL: jest.fn() });
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  return names;
}

afterEach(() => jest.restoreAllMocks());

describe('Masters sidebar', () => {
  it.each([['MLL-ADMIN'], ['MDM']])('lists the spec’s masters in its order for %s, the others under More masters', async (role) => {
    renderMasters(MASTERS_DASHBOARD_PATH, mastersProvider(), [role]);
    const dashboard = await screen.findByRole('menuitem', { name: 'Dashboard' });
    const items = screen.getAllByRole('menuitem').map((i) => i.textContent);
    const start = items.indexOf(dashboard.textContent);
    expect(items.slice(start, start + 1 + SIDEBAR_MASTERS.length)).toEqual([
      'Dashboard',
      'Bank',
      'City',
      'Collection',
      'Email Template',
      'Location',
      'Payment Term',
      'Section Code',
      'Service',
      'State',
      'Tax Type',
      'Vehicle Type',
      'Vendor Recon',
      'Vendor Type',
    ]);
    expect(screen.getByRole('menuitem', { name: 'City' })).toHaveAttribute('href', '/meta-data/city');
    expect(screen.queryByRole('menuitem', { name: 'Zones' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('menuitem', { name: 'More masters' }));
    for (const { label, def } of MORE_MASTERS) {
      expect(await screen.findByRole('menuitem', { name: label })).toHaveAttribute('href', masterListPath(def));
    }
  });

  it('is not there for other staff', async () => {
    renderConsole('/business-associates', { dataProvider: fakeDataProvider(), roles: ['MLL Procurement'] });
    await screen.findByRole('menuitem', { name: /All Request/ });
    expect(screen.queryByRole('menuitem', { name: 'City' })).not.toBeInTheDocument();
    expect(screen.queryByText('Masters')).not.toBeInTheDocument();
  });
});

describe('Masters dashboard', () => {
  it('shows each master’s active and inactive counts and opens its list', async () => {
    const counts = MASTERS.map((d, i) => ({ master: d.resource, active: 10 + i, inactive: i }));
    renderMasters(MASTERS_DASHBOARD_PATH, mastersProvider({ counts }));
    await waitFor(() => expect(screen.getByTestId(`${MASTERS[0]!.resource}-active`)).toHaveTextContent('10'));
    for (const [i, def] of MASTERS.entries()) {
      expect(screen.getByTestId(`${def.resource}-active`)).toHaveTextContent(String(10 + i));
      expect(screen.getByTestId(`${def.resource}-inactive`)).toHaveTextContent(String(i));
    }
    await userEvent.click(screen.getByRole('link', { name: cities.label }));
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(await screen.findByText('Alpha City')).toBeInTheDocument();
  });
});

describe('Master addresses', () => {
  it('sends react-admin’s own resource address (/cities) to the spec’s (/meta-data/city)', async () => {
    const dataProvider = renderMasters('/cities');
    expect(await screen.findByRole('link', { name: 'Create' })).toHaveAttribute('href', '/meta-data/city/create');
    expect(dataProvider.getList).toHaveBeenCalledWith('cities', expect.anything());
  });

  it('opens an item from its row at /meta-data/<master>/<id>', async () => {
    renderMasters(masterListPath(cities));
    await userEvent.click(await screen.findByText('Alpha City'));
    expect(await screen.findByDisplayValue('Alpha City')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to list' })).toHaveAttribute('href', '/meta-data/city');
  });
});

describe('Export and import', () => {
  it('downloads the master as a workbook', async () => {
    const downloads = captureDownloads();
    const dataProvider = renderMasters(masterListPath(cities));
    await userEvent.click(await screen.findByRole('button', { name: 'Export' }));
    await waitFor(() => expect(downloads).toEqual(['cities.xlsx']));
    expect(dataProvider.exportMaster).toHaveBeenCalledWith('cities');
  });

  it('uploads a workbook and says how many rows were added and updated', async () => {
    const dataProvider = renderMasters(
      masterListPath(cities),
      mastersProvider({ importOutcome: { ok: true, result: { created: 3, updated: 2, unchanged: 40, message: null } } }),
    );
    await screen.findByRole('table');
    const file = new File(['xlsx'], 'cities.xlsx', {
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    fireEvent.change(screen.getByTestId('import-cities'), { target: { files: [file] } });
    expect(await screen.findByText('Upload complete: 3 added, 2 updated, 40 unchanged')).toBeInTheDocument();
    expect(dataProvider.importMaster).toHaveBeenCalledWith('cities', file);
  });

  it('downloads the workbook of errors and says so when rows fail', async () => {
    const downloads = captureDownloads();
    renderMasters(
      masterListPath(cities),
      mastersProvider({
        importOutcome: { ok: false, errorWorkbook: { blob: new Blob(['x']), fileName: 'cities-errors.xlsx' } },
      }),
    );
    await screen.findByRole('table');
    fireEvent.change(screen.getByTestId('import-cities'), { target: { files: [new File(['x'], 'cities.xlsx')] } });
    const message = await screen.findByTestId('error-message');
    expect(message).toHaveTextContent(IMPORT_ERRORS_MESSAGE);
    expect(downloads).toEqual(['cities-errors.xlsx']);
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' }));
  });
});
