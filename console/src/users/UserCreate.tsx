import { Create, SimpleForm, useNotify, useRedirect } from 'react-admin';
import type { AppAccess } from '../shared/types';
import { UserInputs } from './UserInputs';

export const USER_CREATED_MESSAGE = 'User created. An invitation e-mail to set a password has been sent';

/** What POST /api/users takes (the form may hold more, e.g. an empty repeater row). */
export const createBody = (data: Record<string, unknown>) => ({
  name: String(data['name'] ?? '').trim(),
  emailId: String(data['emailId'] ?? '').trim(),
  mobileNo: String(data['mobileNo'] ?? '').trim(),
  companyCodes: (data['companyCodes'] as string[] | undefined) ?? [],
  applications: ((data['applications'] as AppAccess[] | undefined) ?? []).map(({ appId, roleName }) => ({ appId, roleName })),
});

const defaults = { companyCodes: [], applications: [{ appId: 'onboard', roleName: '' }] };

/** A new staff account: the user gets an invitation e-mail with a link to set their password. */
export const UserCreate = () => {
  const notify = useNotify();
  const redirect = useRedirect();
  return (
    <Create
      title="New user"
      transform={createBody}
      mutationOptions={{
        onSuccess: () => {
          notify(USER_CREATED_MESSAGE, { type: 'success' });
          redirect('list', 'users');
        },
      }}
    >
      <SimpleForm defaultValues={defaults}>
        <UserInputs mode="create" />
      </SimpleForm>
    </Create>
  );
};
