import { Box, Button } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Link } from 'react-router-dom';
import {
  Edit,
  SaveButton,
  SimpleForm,
  Toolbar,
  TopToolbar,
  useNotify,
  useRecordContext,
  useRedirect,
} from 'react-admin';
import { displayOf, savedMessage, type MasterDefinition } from '../../../domain/src/masters/definitions';
import { MasterStatusChip } from './display';
import { MasterHistory } from './MasterHistory';
import { MasterInputs } from './MasterInputs';
import { masterListPath } from './paths';
import { StatusButton } from './StatusButton';
import type { MasterItem } from './types';
import { masterBody } from './validation';

const Title = ({ def }: { def: MasterDefinition }) => {
  const item = useRecordContext<MasterItem>();
  return <span>{item ? `${def.singular} ${displayOf(def, item)}` : def.singular}</span>;
};

const Actions = ({ def }: { def: MasterDefinition }) => {
  const item = useRecordContext<MasterItem>();
  return (
    <TopToolbar sx={{ gap: 1, alignItems: 'center', width: '100%' }}>
      <Button component={Link} to={masterListPath(def)} size="small" startIcon={<ArrowBackIcon />}>
        Back to list
      </Button>
      <Box sx={{ flex: 1 }} />
      {item && <MasterStatusChip status={item.status} />}
      <StatusButton def={def} backToList />
    </TopToolbar>
  );
};

/** No Delete: items are deactivated, never deleted (events refer to their ids). */
const EditToolbar = () => (
  <Toolbar>
    <SaveButton />
  </Toolbar>
);

/**
 * One item: its fields, Deactivate / Activate, and below them its change history from the item's events
 * (who changed what, when, from what to what). Save: the spec's message, then back to the list.
 */
export const MasterEdit = ({ def }: { def: MasterDefinition }) => {
  const notify = useNotify();
  const redirect = useRedirect();
  return (
    <Edit
      resource={def.resource}
      title={<Title def={def} />}
      actions={<Actions def={def} />}
      mutationMode="pessimistic"
      transform={(data: Record<string, unknown>) => masterBody(def, data)}
      mutationOptions={{
        onSuccess: () => {
          notify(savedMessage(def), { type: 'success' });
          redirect(masterListPath(def));
        },
      }}
    >
      <SimpleForm toolbar={<EditToolbar />}>
        <MasterInputs def={def} mode="update" />
      </SimpleForm>
      <MasterHistory def={def} />
    </Edit>
  );
};
