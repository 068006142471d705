import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { display } from '../../../domain/src/shared/format';
import { useApi } from '../api/ApiContext';
import { isApiError, type BaUser, type BaUserInput, type DepartmentOption } from '../api/client';
import { useSession } from '../identity/session';
import { useBa } from '../onboarding/BaContext';
import { ConfirmDialog } from '../shared/ConfirmDialog';
import { useFeedback } from '../shared/feedback';
import { useUserRows } from './useUserRows';
import { BaUserForm, type SubmitResult } from './BaUserForm';
import { UserStatusChip, usePage, userTexts } from './common';

type Editing = { mode: 'add' } | { mode: 'edit'; user: BaUser };
type Pending = { action: 'block' | 'unblock' | 'contact'; user: BaUser };

/**
 * '/onboard/BA/add-new-ba-user' (BA Admin only; spec 000 §2, §3 "BA users table columns": baUserName, emailId,
 * mobileNo, department, plus status). The admin adds colleagues, edits their access, blocks and unblocks them,
 * and starts an e-mail/mobile change, which the colleague completes from a link.
 */
export function BaUsersPage() {
  const client = useApi();
  const { notify, withLoading } = useFeedback();
  const { ba } = useBa();
  // The admin's own account is not edited or blocked here (the API refuses it): only its contact can change.
  const myId = useSession().user?.id;
  // Spec 000 §2: adding users is for verified BAs (the API refuses it before, in these words).
  const mayAdd = ba.status === 'verified';
  const { rows, options: departments, load, failed } = useUserRows<BaUser, DepartmentOption>(
    (c) => c.baUsers(),
    (c) => c.departments(),
  );
  const [editing, setEditing] = useState<Editing | null>(null);
  // The last action stays while its dialog closes, so the closing dialog keeps its words.
  const [pending, setPending] = useState<Pending | null>(null);
  const [confirming, setConfirming] = useState(false);
  const ask = (p: Pending) => {
    setPending(p);
    setConfirming(true);
  };
  const [busy, setBusy] = useState(false);

  const save = async (input: BaUserInput): Promise<SubmitResult> => {
    if (!editing) return null;
    try {
      if (editing.mode === 'add') await withLoading(() => client.createBaUser(input), 'Saving');
      else await withLoading(() => client.updateBaUser(editing.user.id, input), 'Saving');
      notify(editing.mode === 'add' ? userTexts.added : userTexts.updated);
      setEditing(null);
      await load();
      return null;
    } catch (e) {
      if (isApiError(e) && Object.keys(e.fieldErrors).length > 0) {
        notify(e.message, 'error');
        return e.fieldErrors;
      }
      failed(e);
      return null;
    }
  };

  const confirm = async () => {
    if (!pending) return;
    const { action, user } = pending;
    setBusy(true);
    try {
      if (action === 'contact') {
        await withLoading(() => client.requestContactChange(user.id));
        notify(userTexts.contactLinkSent(user.emailId));
      } else {
        await withLoading(() => client.setBaUserBlocked(user.id, action === 'block'));
        notify(action === 'block' ? userTexts.blocked : userTexts.unblocked);
        await load();
      }
    } catch (e) {
      failed(e);
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  const { shown, pagination } = usePage(rows);

  return (
    <Stack spacing={3}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}
      >
        <div>
          <Typography variant="h5" component="h1">
            BA Users
          </Typography>
          <Typography color="text.secondary">Colleagues who use the portal for your organisation.</Typography>
        </div>
        <Button
          variant="contained"
          startIcon={<PersonAddIcon />}
          onClick={() => setEditing({ mode: 'add' })}
          disabled={!mayAdd}
        >
          Add New User
        </Button>
      </Stack>

      {!mayAdd && <Alert severity="info">{userTexts.notVerified}</Alert>}
      {rows && rows.length === 0 && <Alert severity="info">No users yet. Add your first colleague.</Alert>}
      {rows && rows.length > 0 && (
        <Card>
          <TableContainer>
            <Table size="small" aria-label="BA users">
              <TableHead>
                <TableRow>
                  <TableCell>Name</TableCell>
                  <TableCell>Email Id</TableCell>
                  <TableCell>Mobile No</TableCell>
                  <TableCell>Department</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {shown.map((u) => (
                  <TableRow key={u.id}>
                    <TableCell>{u.baUserName}</TableCell>
                    <TableCell sx={{ wordBreak: 'break-all' }}>{u.emailId}</TableCell>
                    <TableCell>{display(u.mobileNo)}</TableCell>
                    <TableCell>{display(u.department)}</TableCell>
                    <TableCell>
                      <UserStatusChip status={u.status} />
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {u.id !== myId && (
                        <>
                          <Button
                            size="small"
                            aria-label={`Edit ${u.baUserName}`}
                            onClick={() => setEditing({ mode: 'edit', user: u })}
                          >
                            Edit
                          </Button>
                          <Button
                            size="small"
                            color={u.status === 'Active' ? 'error' : 'primary'}
                            aria-label={`${u.status === 'Active' ? 'Block' : 'Unblock'} ${u.baUserName}`}
                            onClick={() => ask({ action: u.status === 'Active' ? 'block' : 'unblock', user: u })}
                          >
                            {u.status === 'Active' ? 'Block' : 'Unblock'}
                          </Button>
                        </>
                      )}
                      <Button
                        size="small"
                        aria-label={`Change e-mail/mobile of ${u.baUserName}`}
                        onClick={() => ask({ action: 'contact', user: u })}
                        disabled={u.status !== 'Active'}
                      >
                        Change e-mail/mobile
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {pagination}
        </Card>
      )}

      {editing && (
        <BaUserForm
          user={editing.mode === 'edit' ? editing.user : null}
          departments={departments}
          onSubmit={save}
          onCancel={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={confirming}
        busy={busy}
        title={
          pending?.action === 'contact'
            ? 'Change e-mail/mobile'
            : pending?.action === 'block'
              ? 'Block user'
              : 'Unblock user'
        }
        confirmLabel={
          pending?.action === 'contact' ? 'Send link' : pending?.action === 'block' ? 'Block' : 'Unblock'
        }
        onConfirm={() => void confirm()}
        onCancel={() => setConfirming(false)}
      >
        {pending?.action === 'contact'
          ? `${pending.user.baUserName} will receive an e-mail at ${pending.user.emailId} with a link to ` +
            'change the e-mail id and mobile number.'
          : pending?.action === 'block'
            ? `Block ${pending.user.baUserName}? They will no longer be able to sign in.`
            : pending
              ? `Unblock ${pending.user.baUserName}? They will be able to sign in again.`
              : ''}
      </ConfirmDialog>
    </Stack>
  );
}
