import { Box } from '@mui/material';
import {
  AutocompleteArrayInput,
  AutocompleteInput,
  BooleanInput,
  NumberInput,
  ReferenceArrayInput,
  ReferenceInput,
  SelectInput,
  TextInput,
} from 'react-admin';
import {
  masterDefinition,
  type MasterDefinition,
  type MasterField,
} from '../../../domain/src/masters/definitions';
import { fieldValidator } from './validation';

type Mode = 'create' | 'update';

/**
 * '' is a real enum value (the GST type "GST Registered"), but react-admin's SelectInput and its default
 * parse read '' as "nothing chosen": the choice travels under a stand-in and turns back into '' on parse.
 */
const BLANK_CHOICE = '__blank__';
const encodeChoice = (id: string) => (id === '' ? BLANK_CHOICE : id);
const formatChoice = (v: unknown) => (v === '' ? BLANK_CHOICE : (v ?? ''));
const parseChoice = (v: unknown) => (v === BLANK_CHOICE ? '' : v === '' ? null : v);

/** Only active items can be chosen; the one already chosen still shows (react-admin fetches it by id). */
const ACTIVE = { status: 'active' } as const;
/** Pick-lists are short (36 states at most); long ones narrow as the user types (the API's `q`). */
const CHOICES_PER_PAGE = 100;

function referenced(field: MasterField): MasterDefinition {
  return masterDefinition(field.ref ?? '');
}

/** The input of one field, by its kind. */
export const MasterInput = ({ def, field, mode }: { def: MasterDefinition; field: MasterField; mode: Mode }) => {
  const common = { source: field.name, label: field.label, validate: fieldValidator(def, field, mode) };
  switch (field.kind) {
    case 'text':
    case 'name':
    case 'code':
    case 'email':
      return <TextInput {...common} fullWidth />;
    case 'longtext':
      return <TextInput {...common} multiline minRows={6} fullWidth />;
    case 'int':
      return <NumberInput {...common} step={1} min={0} />;
    case 'decimal':
    case 'percent':
      return <NumberInput {...common} step={0.01} min={0} />;
    case 'bool':
      return <BooleanInput source={field.name} label={field.label} />;
    case 'enum':
      return (
        <SelectInput
          {...common}
          choices={(field.options ?? []).map((o) => ({ id: encodeChoice(o.id), name: o.name }))}
          format={formatChoice}
          parse={parseChoice}
        />
      );
    case 'ref': {
      const target = referenced(field);
      return (
        <ReferenceInput
          source={field.name}
          reference={target.resource}
          filter={ACTIVE}
          sort={{ field: target.display, order: 'ASC' }}
          perPage={CHOICES_PER_PAGE}
        >
          <AutocompleteInput
            label={field.label}
            optionText={target.display}
            validate={common.validate}
            filterToQuery={(q: string) => ({ q })}
            fullWidth
          />
        </ReferenceInput>
      );
    }
    case 'refs': {
      const target = referenced(field);
      return (
        <ReferenceArrayInput
          source={field.name}
          reference={target.resource}
          filter={ACTIVE}
          sort={{ field: target.display, order: 'ASC' }}
          perPage={CHOICES_PER_PAGE}
        >
          <AutocompleteArrayInput
            label={field.label}
            optionText={target.display}
            validate={common.validate}
            filterToQuery={(q: string) => ({ q })}
            fullWidth
          />
        </ReferenceArrayInput>
      );
    }
    default: {
      const unknownKind: never = field.kind;
      throw new Error(`No input for field kind ${String(unknownKind)}`);
    }
  }
};

/** Every field of a master, in the definition's order: shared by Create and Edit. */
export const MasterInputs = ({ def, mode }: { def: MasterDefinition; mode: Mode }) => (
  <Box sx={{ width: '100%', maxWidth: 720 }}>
    {def.fields.map((field) => (
      <MasterInput key={field.name} def={def} field={field} mode={mode} />
    ))}
  </Box>
);
