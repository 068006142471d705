import { useState } from 'react';
import { Button } from '@mui/material';
import BlockIcon from '@mui/icons-material/Block';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import { useMutation } from '@tanstack/react-query';
import { useDataProvider, useNotify, useRecordContext, useRedirect, useRefresh } from 'react-admin';
import { DecisionDialog } from '../onboarding/DecisionDialog';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { errorText } from '../providers/httpClient';
import type { StaffUser } from '../shared/types';

type Verb = 'block' | 'unblock';

/** Spec 000 §8 success messages. */
export const USER_STATUS_MESSAGES: Record<Verb, string> = {
  block: 'Successfully Blocked',
  unblock: 'Successfully Unblocked',
};

/** Block or unblock with the required reason; on success the spec's snackbar, then back to the list. */
function useUserStatusCommand(user: StaffUser, verb: Verb, onDone: () => void) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const redirect = useRedirect();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (reason: string) =>
      verb === 'block' ? dataProvider.blockUser(user.id, { reason }) : dataProvider.unblockUser(user.id, { reason }),
    onSuccess: (result) => {
      // After a 401 react-admin resolves with an empty result while it signs the user out.
      if (!result?.data?.id) return;
      onDone();
      notify(USER_STATUS_MESSAGES[verb], { type: 'success' });
      refresh();
      redirect('list', 'users');
    },
    onError: (error: unknown) => notify(errorText(error), { type: 'error' }),
  });
}

const StatusAction = ({ user, verb }: { user: StaffUser; verb: Verb }) => {
  const [open, setOpen] = useState(false);
  const command = useUserStatusCommand(user, verb, () => setOpen(false));
  const label = verb === 'block' ? 'Block' : 'Unblock';
  return (
    <>
      <Button
        variant="outlined"
        color={verb === 'block' ? 'error' : 'success'}
        startIcon={verb === 'block' ? <BlockIcon /> : <LockOpenIcon />}
        onClick={() => {
          command.reset();
          setOpen(true);
        }}
      >
        {label}
      </Button>
      <DecisionDialog
        open={open}
        title={`${label} ${user.name}`}
        text={
          verb === 'block'
            ? 'The user can no longer sign in, and every session they have ends.'
            : 'The user can sign in again.'
        }
        confirmLabel={label}
        confirmColor={verb === 'block' ? 'error' : 'success'}
        remarksRequired
        fieldLabel="Reason"
        isPending={command.isPending}
        onCancel={() => setOpen(false)}
        onConfirm={(reason) => command.mutate(reason ?? '')}
      />
    </>
  );
};

/** Shown for an active user. */
export const BlockButton = () => {
  const user = useRecordContext<StaffUser>();
  if (!user || user.status === 'blocked') return null;
  return <StatusAction user={user} verb="block" />;
};

/** Shown for a blocked user. */
export const UnblockButton = () => {
  const user = useRecordContext<StaffUser>();
  if (!user || user.status !== 'blocked') return null;
  return <StatusAction user={user} verb="unblock" />;
};
