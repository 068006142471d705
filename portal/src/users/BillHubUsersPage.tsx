import { useId, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { fields, messages } from '../../../domain/src/validation/fields';
import { display } from '../../../domain/src/shared/format';
import { useApi } from '../api/ApiContext';
import { isApiError, type BillHubUser, type BillHubUserInput, type StateOption } from '../api/client';
import { ConfirmDialog } from '../shared/ConfirmDialog';
import { useFeedback } from '../shared/feedback';
import { useUserRows } from './useUserRows';
import { checkField, hasErrors, withoutEmpty, type Errors } from '../shared/validation';
import type { SubmitResult } from './BaUserForm';
import { UserStatusChip, usePage, userTexts } from './common';

/**
 * '/onboard/BA/add-childBillHub-user' (BA Admin only; spec 000 §1 "child bill-hub users (per GST state)",
 * §3 "Child bill-hub user: stateName, childCode, Status"). The child code stays "NA" until vendor codes exist.
 */
export function BillHubUsersPage() {
  const client = useApi();
  const { notify, withLoading } = useFeedback();
  const { rows, options: states, load, failed } = useUserRows<BillHubUser, StateOption>(
    (c) => c.billHubUsers(),
    (c) => c.states(),
  );
  const [adding, setAdding] = useState(false);
  const [pending, setPending] = useState<BillHubUser | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  const add = async (input: BillHubUserInput): Promise<SubmitResult> => {
    try {
      await withLoading(() => client.createBillHubUser(input), 'Saving');
      notify(userTexts.added);
      setAdding(false);
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

  const toggleBlock = async () => {
    if (!pending) return;
    const block = pending.Status === 'Active';
    setBusy(true);
    try {
      await withLoading(() => client.setBillHubUserBlocked(pending.id, block));
      notify(block ? userTexts.blocked : userTexts.unblocked);
      await load();
    } catch (e) {
      failed(e);
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  const { shown, pagination } = usePage(rows);
  const blocking = pending?.Status === 'Active';

  return (
    <Stack spacing={3}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}
      >
        <div>
          <Typography variant="h5" component="h1">
            GST-State BA for Billhub
          </Typography>
          <Typography color="text.secondary">
            Bill-Hub users for the states where you are GST registered.
          </Typography>
        </div>
        <Button variant="contained" startIcon={<PersonAddIcon />} onClick={() => setAdding(true)}>
          Add Bill-Hub User
        </Button>
      </Stack>

      {rows && rows.length === 0 && <Alert severity="info">No Bill-Hub users yet.</Alert>}
      {rows && rows.length > 0 && (
        <Card>
          <TableContainer>
            <Table size="small" aria-label="Bill-Hub users">
              <TableHead>
                <TableRow>
                  <TableCell>State Name</TableCell>
                  <TableCell>Child Code</TableCell>
                  <TableCell>Name</TableCell>
                  <TableCell>Email Id</TableCell>
                  <TableCell>Mobile No</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {shown.map((u) => (
                  <TableRow key={u.id}>
                    <TableCell>{u.stateName}</TableCell>
                    <TableCell>{display(u.childCode)}</TableCell>
                    <TableCell>{u.name}</TableCell>
                    <TableCell sx={{ wordBreak: 'break-all' }}>{u.emailId}</TableCell>
                    <TableCell>{display(u.mobileNo)}</TableCell>
                    <TableCell>
                      <UserStatusChip status={u.Status} />
                    </TableCell>
                    <TableCell align="right">
                      <Button
                        size="small"
                        color={u.Status === 'Active' ? 'error' : 'primary'}
                        aria-label={`${u.Status === 'Active' ? 'Block' : 'Unblock'} ${u.name}`}
                        onClick={() => {
                          setPending(u);
                          setConfirming(true);
                        }}
                      >
                        {u.Status === 'Active' ? 'Block' : 'Unblock'}
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

      {adding && <BillHubUserForm states={states} onSubmit={add} onCancel={() => setAdding(false)} />}
      <ConfirmDialog
        open={confirming}
        busy={busy}
        title={blocking ? 'Block user' : 'Unblock user'}
        confirmLabel={blocking ? 'Block' : 'Unblock'}
        onConfirm={() => void toggleBlock()}
        onCancel={() => setConfirming(false)}
      >
        {pending
          ? blocking
            ? `Block ${pending.name} (${pending.stateName})? They will no longer be able to sign in.`
            : `Unblock ${pending.name} (${pending.stateName})? They will be able to sign in again.`
          : ''}
      </ConfirmDialog>
    </Stack>
  );
}

type Field = 'stateId' | 'name' | 'emailId' | 'mobileNo';

function BillHubUserForm({
  states,
  onSubmit,
  onCancel,
}: {
  states: StateOption[];
  onSubmit: (input: BillHubUserInput) => Promise<SubmitResult>;
  onCancel: () => void;
}) {
  const titleId = useId();
  const [values, setValues] = useState<Record<Field, string>>({
    stateId: '',
    name: '',
    emailId: '',
    mobileNo: '',
  });
  const [errors, setErrors] = useState<Errors<string>>({});
  const [busy, setBusy] = useState(false);

  const set = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = withoutEmpty<Field>({
      stateId: values.stateId === '' ? messages.required : undefined,
      name: checkField(fields.name, values.name),
      emailId: checkField(fields.email, values.emailId),
      mobileNo: checkField(fields.mobile, values.mobileNo),
    });
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    try {
      const serverErrors = await onSubmit({
        stateId: Number(values.stateId),
        name: values.name.trim(),
        emailId: values.emailId.trim(),
        mobileNo: values.mobileNo.trim(),
      });
      if (serverErrors) setErrors(serverErrors);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onCancel} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <form noValidate onSubmit={submit} aria-labelledby={titleId}>
        <DialogTitle id={titleId}>Add GST-State BA for Billhub</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              select
              label="State"
              name="stateId"
              required
              value={values.stateId}
              onChange={(e) => set('stateId', e.target.value)}
              error={Boolean(errors['stateId'])}
              helperText={errors['stateId']}
              slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
            >
              <option value="">Select state</option>
              {states.map((s) => (
                <option key={s.id} value={String(s.id)}>
                  {s.name}
                </option>
              ))}
            </TextField>
            <TextField
              label="Name"
              name="name"
              required
              value={values.name}
              onChange={(e) => set('name', e.target.value)}
              error={Boolean(errors['name'])}
              helperText={errors['name']}
            />
            <TextField
              label="Email Id"
              name="emailId"
              type="email"
              required
              value={values.emailId}
              onChange={(e) => set('emailId', e.target.value)}
              error={Boolean(errors['emailId'])}
              helperText={errors['emailId']}
            />
            <TextField
              label="Mobile No"
              name="mobileNo"
              type="tel"
              required
              value={values.mobileNo}
              onChange={(e) => set('mobileNo', e.target.value.replace(/\D/g, '').slice(0, 10))}
              error={Boolean(errors['mobileNo'])}
              helperText={errors['mobileNo']}
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 10 } }}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            Add User
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
