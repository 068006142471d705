import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import ContactMailIcon from '@mui/icons-material/ContactMail';
import { useDataProvider, useNotify, usePermissions, useRecordContext } from 'react-admin';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import type { BusinessAssociate } from '../shared/types';
import { baLabel } from './baName';

/** Spec 000 §6 leaves it open; issue 5 names MLL-ADMIN and the BA Engagement Manager (and the BA Admin, in the portal). */
export const CONTACT_CHANGE_ROLES = ['MLL-ADMIN', 'BA Engagement Manager'] as const;
/** Spec 000 §8 success message. */
export const REQUEST_SENT = 'Request sent successfully!';

export const mayStartContactChange = (permissions: readonly string[] | undefined): boolean =>
  (permissions ?? []).some((r) => (CONTACT_CHANGE_ROLES as readonly string[]).includes(r));

/**
 * Starts a change of the BA Admin's registered e-mail id and mobile number: the API e-mails the admin a link
 * (valid 24 h) where they prove who they are, enter the new details and confirm them with codes.
 */
export const ContactChangeButton = () => {
  const record = useRecordContext<BusinessAssociate>();
  const { permissions } = usePermissions<string[]>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [sending, setSending] = useState(false);
  if (!record?.adminUserId || !mayStartContactChange(permissions)) return null;
  const adminUserId = record.adminUserId;

  const send = async () => {
    setSending(true);
    try {
      await dataProvider.startContactChange(adminUserId);
      notify(REQUEST_SENT, { type: 'success' });
      setOpen(false);
    } catch (error) {
      notify(error instanceof Error ? error.message : 'There was a problem at our end', { type: 'error' });
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <Button variant="outlined" startIcon={<ContactMailIcon />} onClick={() => setOpen(true)}>
        Change e-mail/mobile
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="contact-change-title">
        <DialogTitle id="contact-change-title">Change registered e-mail id and mobile number</DialogTitle>
        <DialogContent>
          <DialogContentText>
            The BA Admin of {baLabel(record, 'this business associate')} will get an e-mail at{' '}
            {record.registeredEmail ?? 'the registered e-mail id'} with a link, valid for 24 hours, to change the
            registered e-mail id and mobile number.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)} disabled={sending}>
            Cancel
          </Button>
          <Button variant="contained" onClick={() => void send()} disabled={sending}>
            Send link
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
};
