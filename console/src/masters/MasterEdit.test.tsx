import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError } from 'react-admin';
import { MASTERS, masterDefinition, savedMessage } from '../../../domain/src/masters/definitions';
import { masterCreatePath, masterEditPath } from './paths';
import { fillField, labelled, masterChange, mastersProvider, renderMasters, sampleItem, sampleValue } from './testing';


const fillable = new Set(['text', 'name', 'code', 'longtext', 'email', 'int', 'decimal', 'percent']);

describe.each(MASTERS.map((def) => [def.resource, def] as const))('%s edit', (_resource, def) => {
  it('saves a change with only the master fields, says so and goes back to the list', async () => {
    const item = sampleItem(def, 0);
    const dataProvider = renderMasters(masterEditPath(def, item.id));
    const field = def.fields.find((f) => fillable.has(f.kind))!;
    const numeric = ['int', 'decimal', 'percent'].includes(field.kind);
    const input = await screen.findByRole(numeric ? 'spinbutton' : 'textbox', { name: labelled(field.label) });
    // The form holds the item as it stands before anything is typed.
    await waitFor(() => expect(input).toHaveValue(numeric ? Number(item[field.name]) : String(item[field.name])));
    const next = sampleValue(def, field, 1);
    await fillField(def, field, next);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(dataProvider.update).toHaveBeenCalledTimes(1));
    const [resource, params] = dataProvider.update.mock.calls[0]!;
    expect(resource).toBe(def.resource);
    expect(String(params.id)).toBe(String(item.id));
    const expected = Object.fromEntries(def.fields.map((f) => [f.name, f.name === field.name ? next : item[f.name]]));
    expect(params.data).toEqual(expected);
    expect(await screen.findByText(savedMessage(def))).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Create' })).toHaveAttribute('href', masterCreatePath(def));
  });
});

describe('An item’s page', () => {
  const taxTypes = masterDefinition('tax-types');

  it('shows who changed what and when, newest first, before → after', async () => {
    const dataProvider = mastersProvider({
      history: [
        masterChange({ id: 'e1', after: { taxName: 'Alpha Tax Type', taxRate: 2 } }),
        masterChange({
          id: 'e2',
          type: 'MasterItemChanged',
          at: '2025-11-03T05:00:00.000Z',
          who: 'Meena MDM',
          role: 'MDM',
          before: { taxRate: 2 },
          after: { taxRate: 1 },
        }),
        masterChange({
          id: 'e3',
          type: 'MasterItemStatusChanged',
          at: '2025-11-04T06:15:00.000Z',
          who: 'Asha Admin',
          role: 'MLL-ADMIN',
          before: { status: 'active' },
          after: { status: 'inactive' },
        }),
      ],
    });
    renderMasters(masterEditPath(taxTypes, 1), dataProvider);
    const table = await screen.findByRole('table', { name: 'Change history' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[2]!.textContent)).toEqual(['Deactivated', 'Changed', 'Created']);
    const changed = rows[1]!;
    expect(within(changed).getByText('03-Nov-2025 10:30')).toBeInTheDocument();
    expect(within(changed).getByText('Meena MDM')).toBeInTheDocument();
    expect(within(changed).getByText('MDM')).toBeInTheDocument();
    expect(within(changed).getAllByRole('cell')[3]!.textContent).toBe('Tax Rate (%):2→1');
    expect(dataProvider.getMasterHistory).toHaveBeenCalledWith('tax-types', 1);
  });

  it('shows a referenced item by its name in the history', async () => {
    const cities = masterDefinition('cities');
    const dataProvider = mastersProvider({
      history: [masterChange({ id: 'e1', after: { name: 'Alpha City', stateId: 1 } })],
    });
    renderMasters(masterEditPath(cities, 1), dataProvider);
    const table = await screen.findByRole('table', { name: 'Change history' });
    expect(await within(table).findByText('Alpha State')).toBeInTheDocument();
  });

  it("puts the API's field errors on the fields and stays on the form", async () => {
    // The state was deactivated while the form was open: the API refuses it by field.
    const error = new HttpError('Please correct the highlighted fields', 400, {
      message: 'Please correct the highlighted fields',
      errors: { stateId: 'Please select a valid State' },
    });
    const cities = masterDefinition('cities');
    const dataProvider = renderMasters(masterCreatePath(cities), mastersProvider({ saveError: error }));
    await screen.findByText('New City');
    await fillField(cities, cities.fields[0]!, 'Khopoli');
    await fillField(cities, cities.fields[1]!, 1);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(dataProvider.create).toHaveBeenCalledTimes(1));
    const state = screen.getByRole('combobox', { name: labelled('State') });
    await waitFor(() => expect(state).toHaveAccessibleDescription('Please select a valid State'));
    expect(screen.queryByText(savedMessage(cities))).not.toBeInTheDocument();
    expect(screen.getByText('New City')).toBeInTheDocument();
  });

  it('shows a refusal without field errors (a duplicate) in the error dialog and keeps the form', async () => {
    const message = 'A City with this City Name and State already exists';
    const cities = masterDefinition('cities');
    const dataProvider = renderMasters(
      masterCreatePath(cities),
      mastersProvider({ saveError: new HttpError(message, 409, { message }) }),
    );
    await screen.findByText('New City');
    await fillField(cities, cities.fields[0]!, 'Mumbai');
    await fillField(cities, cities.fields[1]!, 1);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(dataProvider.create).toHaveBeenCalledTimes(1));
    expect(await screen.findByTestId('error-message')).toHaveTextContent(message);
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' }));
    expect(await screen.findByRole('textbox', { name: labelled('City Name') })).toHaveValue('Mumbai');
  });
});
