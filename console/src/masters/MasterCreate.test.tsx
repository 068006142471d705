import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MASTERS, masterSchema, savedMessage } from '../../../domain/src/masters/definitions';
import { masterCreatePath } from './paths';
import { fillField, renderMasters, sampleValue } from './testing';


const cases = MASTERS.map((def) => [def.resource, def] as const);

describe.each(cases)('%s create', (_resource, def) => {
  it("refuses to save without the required fields, with the master's own schema messages", async () => {
    const dataProvider = renderMasters(masterCreatePath(def));
    expect(await screen.findByText(`New ${def.singular}`)).toBeInTheDocument();
    const required = def.fields.filter((f) => f.required);
    // A text field with a formula start is refused too: the schema's words, not the browser's.
    const textual = def.fields.find((f) => ['text', 'name', 'code'].includes(f.kind));
    if (textual) await fillField(def, textual, '=SUM(A1)');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    const schema = masterSchema(def, 'create').shape;
    for (const field of required.filter((f) => f !== textual)) {
      const expected = schema[field.name]!.safeParse(field.kind === 'refs' ? [] : null);
      expect(expected.success).toBe(false);
      const message = expected.error!.issues[0]!.message;
      expect((await screen.findAllByText(message)).length).toBeGreaterThan(0);
    }
    if (textual) {
      const message = schema[textual.name]!.safeParse('=SUM(A1)').error!.issues[0]!.message;
      expect((await screen.findAllByText(message)).length).toBeGreaterThan(0);
    }
    expect(dataProvider.create).not.toHaveBeenCalled();
    // The fields say what is wrong: no modal stands in front of them.
    expect(screen.queryByTestId('error-message')).not.toBeInTheDocument();
  });

  it('saves a new item, says so and goes back to the list', async () => {
    const dataProvider = renderMasters(masterCreatePath(def));
    await screen.findByText(`New ${def.singular}`);
    const values: Record<string, unknown> = {};
    for (const field of def.fields.filter((f) => f.required || f.kind === 'bool')) {
      values[field.name] = sampleValue(def, field, 0);
      await fillField(def, field, values[field.name]);
    }
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(dataProvider.create).toHaveBeenCalledTimes(1));
    const [resource, { data }] = dataProvider.create.mock.calls[0]!;
    expect(resource).toBe(def.resource);
    // Only the master's fields travel; the ones left empty go as null (or an empty list).
    expect(Object.keys(data).sort()).toEqual(def.fields.map((f) => f.name).sort());
    expect(data).toMatchObject(values);
    expect(await screen.findByText(savedMessage(def))).toBeInTheDocument();
    expect(await screen.findByRole('table')).toBeInTheDocument();
    // The master's own list, at its /meta-data address.
    expect(await screen.findByRole('link', { name: 'Create' })).toHaveAttribute('href', masterCreatePath(def));
  });
});
