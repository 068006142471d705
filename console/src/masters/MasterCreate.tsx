import { Create, SaveButton, SimpleForm, Toolbar, useNotify, useRedirect } from 'react-admin';
import { savedMessage, type MasterDefinition } from '../../../domain/src/masters/definitions';
import { MasterInputs } from './MasterInputs';
import { masterListPath } from './paths';
import { masterBody } from './validation';

/** What a new item's form starts with: switches off, no references picked. */
export function createDefaults(def: MasterDefinition): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  for (const f of def.fields) {
    if (f.kind === 'bool') defaults[f.name] = false;
    if (f.kind === 'refs') defaults[f.name] = [];
  }
  return defaults;
}

/** Save works on an empty form too: the fields then say what is required, rather than a greyed button. */
const CreateToolbar = () => (
  <Toolbar>
    <SaveButton alwaysEnable />
  </Toolbar>
);

/**
 * A new item: the master's inputs checked with its schema; the API's field errors land on the fields
 * (react-admin's server-side validation, pessimistic save). On success the spec's message (000 §4, "<master>
 * saved successfully") and back to the master's list.
 */
export const MasterCreate = ({ def }: { def: MasterDefinition }) => {
  const notify = useNotify();
  const redirect = useRedirect();
  return (
    <Create
      resource={def.resource}
      title={`New ${def.singular}`}
      transform={(data: Record<string, unknown>) => masterBody(def, data)}
      mutationOptions={{
        onSuccess: () => {
          notify(savedMessage(def), { type: 'success' });
          redirect(masterListPath(def));
        },
      }}
    >
      <SimpleForm defaultValues={createDefaults(def)} toolbar={<CreateToolbar />}>
        <MasterInputs def={def} mode="create" />
      </SimpleForm>
    </Create>
  );
};
