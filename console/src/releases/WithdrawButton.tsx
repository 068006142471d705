import { useState } from 'react';
import { Button } from '@mui/material';
import UnpublishedIcon from '@mui/icons-material/UnpublishedOutlined';
import { useMutation } from '@tanstack/react-query';
import { Confirm, useNotify, useRecordContext, useRedirect, useRefresh } from 'react-admin';
import { releaseTitle } from '../../../domain/src/releases/fields';
import { errorText } from '../providers/httpClient';
import { withdrawRelease } from './api';
import type { Release } from './types';

export const RELEASE_WITHDRAWN_MESSAGE = 'Release withdrawn successfully';

/** Takes the release off What's New and its public page, after a confirmation; then back to the list. */
export const WithdrawButton = () => {
  const release = useRecordContext<Release>();
  const [open, setOpen] = useState(false);
  const notify = useNotify();
  const redirect = useRedirect();
  const refresh = useRefresh();
  const command = useMutation({
    mutationFn: (id: string) => withdrawRelease(id),
    onSuccess: () => {
      setOpen(false);
      notify(RELEASE_WITHDRAWN_MESSAGE, { type: 'success' });
      refresh();
      redirect('list', 'releases');
    },
    onError: (error: unknown) => {
      setOpen(false);
      notify(errorText(error), { type: 'error' });
    },
  });
  if (!release) return null;
  return (
    <>
      <Button variant="outlined" color="error" startIcon={<UnpublishedIcon />} onClick={() => setOpen(true)}>
        Withdraw
      </Button>
      <Confirm
        isOpen={open}
        loading={command.isPending}
        title={`Withdraw ${releaseTitle(release)}?`}
        content="It disappears from What's New and its release page. The same version can be published again later."
        confirm="Withdraw"
        confirmColor="warning"
        onConfirm={() => command.mutate(release.id)}
        onClose={() => setOpen(false)}
      />
    </>
  );
};
