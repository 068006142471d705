import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MASTERS } from '../../../domain/src/masters/definitions';
import { masterEditPath, masterListPath } from './paths';
import { statusMessage } from './StatusButton';
import { renderMasters, sampleItem, sampleName } from './testing';


describe.each(MASTERS.map((def) => [def.resource, def] as const))('%s status', (_resource, def) => {
  it('deactivates an item from its row only after a confirmation; an inactive one offers Activate', async () => {
    const dataProvider = renderMasters(masterListPath(def));
    const table = await screen.findByRole('table');
    const row = (await within(table).findAllByText(sampleName(def, 0)))[0]!.closest('tr') as HTMLElement;
    const inactive = within(table).getAllByText(sampleName(def, 1))[0]!.closest('tr') as HTMLElement;
    expect(within(inactive).getByRole('button', { name: `Activate ${sampleName(def, 1)}` })).toBeInTheDocument();

    await userEvent.click(within(row).getByRole('button', { name: `Deactivate ${sampleName(def, 0)}` }));
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(`Deactivate ${def.singular} "${sampleName(def, 0)}"?`)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: /Cancel/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(dataProvider.update).not.toHaveBeenCalled();
    // The click did not open the row either.
    expect(screen.getByRole('table')).toBeInTheDocument();

    await userEvent.click(within(row).getByRole('button', { name: `Deactivate ${sampleName(def, 0)}` }));
    dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(dataProvider.update).toHaveBeenCalledTimes(1));
    const [resource, params] = dataProvider.update.mock.calls[0]!;
    expect(resource).toBe(def.resource);
    expect(params).toMatchObject({ id: sampleItem(def, 0).id, data: { status: 'inactive' } });
    expect(await screen.findByText(statusMessage(def, 'deactivate'))).toBeInTheDocument();
  });
});

describe('Status on the item’s page', () => {
  const def = MASTERS.find((d) => d.resource === 'vehicle-types')!;

  it('activates an inactive item after a confirmation, then goes back to the list', async () => {
    const item = sampleItem(def, 1);
    const dataProvider = renderMasters(masterEditPath(def, item.id));
    await screen.findByDisplayValue(String(item['name']));
    await userEvent.click(screen.getByRole('button', { name: `Activate ${String(item['name'])}` }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Activate' }));
    await waitFor(() => expect(dataProvider.update).toHaveBeenCalledTimes(1));
    expect(dataProvider.update.mock.calls[0]!.slice(0, 2)).toMatchObject([
      'vehicle-types',
      { id: item.id, data: { status: 'active' } },
    ]);
    expect(await screen.findByText('Vehicle Type activated successfully')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Create' })).toBeInTheDocument();
  });
});
