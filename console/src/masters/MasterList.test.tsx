import { screen, waitFor, within } from '@testing-library/react';
import { MASTERS } from '../../../domain/src/masters/definitions';
import { plainValue } from './display';
import { masterListPath } from './paths';
import { MASTERS_PER_PAGE } from './MasterList';
import { renderMasters, sampleItem, sampleName } from './testing';
import { masterDefinition } from '../../../domain/src/masters/definitions';

// The whole console mounts per test on shared 2-core machines: give slow runs room (no timing is asserted).

describe.each(MASTERS.map((def) => [def.resource, def] as const))('%s list', (_resource, def) => {
  it('shows every field as a column, references by name, booleans as Yes/No, 100 rows a page', async () => {
    const dataProvider = renderMasters(masterListPath(def));
    const table = await screen.findByRole('table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent?.trim());
    for (const field of def.fields.filter((f) => f.kind !== 'longtext')) expect(headers).toContain(field.label);
    expect(headers).toContain('Status');

    const first = sampleItem(def, 0);
    const row = (await within(table).findAllByText(sampleName(def, 0)))[0]!.closest('tr') as HTMLElement;
    for (const field of def.fields) {
      if (field.kind === 'longtext') continue;
      if (field.kind === 'ref' || field.kind === 'refs') {
        const target = masterDefinition(field.ref!);
        expect(await within(row).findByText(sampleName(target, 0))).toBeInTheDocument();
      } else {
        expect(within(row).getAllByText(plainValue(field, first[field.name])).length).toBeGreaterThan(0);
      }
    }
    expect(within(row).getByText('Active')).toBeInTheDocument();
    const second = (await within(table).findAllByText(sampleName(def, 1)))[0]!.closest('tr') as HTMLElement;
    expect(within(second).getByText('Inactive')).toBeInTheDocument();

    await waitFor(() => expect(dataProvider.getList).toHaveBeenCalledWith(def.resource, expect.anything()));
    // Other screens may read the same resource (the app bar reads companies): one of the calls is the list's.
    const calls = dataProvider.getList.mock.calls.filter(([r]) => r === def.resource).map(([, params]) => params);
    expect(calls).toContainEqual(
      expect.objectContaining({
        pagination: { page: 1, perPage: MASTERS_PER_PAGE },
        sort: { field: def.display, order: 'ASC' },
      }),
    );
    expect(MASTERS_PER_PAGE).toBe(100);
    expect(screen.getByPlaceholderText(`Search ${def.label.toLowerCase()}`)).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Status' })).toBeInTheDocument();
  });
});
