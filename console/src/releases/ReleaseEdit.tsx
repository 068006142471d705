import { Box } from '@mui/material';
import {
  Edit,
  ListButton,
  SaveButton,
  SimpleForm,
  Toolbar,
  TopToolbar,
  useNotify,
  useRecordContext,
  useRedirect,
} from 'react-admin';
import { releaseTitle } from '../../../domain/src/releases/fields';
import { RELEASE_SAVED_MESSAGE, releaseBody } from './ReleaseCreate';
import { ReleaseInputs } from './ReleaseInputs';
import type { Release } from './types';
import { WithdrawButton } from './WithdrawButton';

const ReleaseTitle = () => {
  const release = useRecordContext<Release>();
  return <span>{release ? releaseTitle(release) : 'Release'}</span>;
};

const EditActions = () => (
  <TopToolbar sx={{ gap: 1, alignItems: 'center' }}>
    <ListButton label="Back to list" />
    <Box sx={{ flex: 1 }} />
    <WithdrawButton />
  </TopToolbar>
);

/** No Delete: a release is withdrawn (an event), never deleted. */
const EditToolbar = () => (
  <Toolbar>
    <SaveButton />
  </Toolbar>
);

/** The content of a published release; version and device type stay as they are. */
export const ReleaseEdit = () => {
  const notify = useNotify();
  const redirect = useRedirect();
  return (
    <Edit
      title={<ReleaseTitle />}
      actions={<EditActions />}
      mutationMode="pessimistic"
      transform={releaseBody}
      mutationOptions={{
        onSuccess: () => {
          notify(RELEASE_SAVED_MESSAGE, { type: 'success' });
          redirect('list', 'releases');
        },
      }}
    >
      <SimpleForm toolbar={<EditToolbar />}>
        <ReleaseInputs mode="edit" />
      </SimpleForm>
    </Edit>
  );
};
