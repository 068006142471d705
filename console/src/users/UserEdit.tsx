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
import type { StaffUser } from '../shared/types';
import { createBody } from './UserCreate';
import { UserInputs } from './UserInputs';
import { BlockButton, UnblockButton } from './UserStatusButtons';

export const USER_UPDATED_MESSAGE = 'User updated';

/** PUT /api/users/:id takes these; the e-mail id changes only through the contact-change flow. */
const updateBody = (data: Record<string, unknown>) => {
  const { name, mobileNo, companyCodes, applications } = createBody(data);
  return { name, mobileNo, companyCodes, applications };
};

const UserTitle = () => {
  const user = useRecordContext<StaffUser>();
  return <span>{user ? `User ${user.name}` : 'User'}</span>;
};

const EditActions = () => (
  <TopToolbar sx={{ gap: 1, alignItems: 'center' }}>
    <ListButton label="Back to list" />
    <Box sx={{ flex: 1 }} />
    <BlockButton />
    <UnblockButton />
  </TopToolbar>
);

const EditToolbar = () => (
  <Toolbar>
    <SaveButton />
  </Toolbar>
);

/** Name, mobile number, company codes and roles of a staff account; Block / Unblock beside them. */
export const UserEdit = () => {
  const notify = useNotify();
  const redirect = useRedirect();
  return (
    <Edit
      title={<UserTitle />}
      actions={<EditActions />}
      mutationMode="pessimistic"
      transform={updateBody}
      mutationOptions={{
        onSuccess: () => {
          notify(USER_UPDATED_MESSAGE, { type: 'success' });
          redirect('list', 'users');
        },
      }}
    >
      {/* No Delete: accounts are blocked, never deleted (the API has no DELETE). */}
      <SimpleForm toolbar={<EditToolbar />}>
        <UserInputs mode="edit" />
      </SimpleForm>
    </Edit>
  );
};
