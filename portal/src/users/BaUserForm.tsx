import { useId, useState, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { fields } from '../../../domain/src/validation/fields';
import type { AppId, BaUser, BaUserInput, DepartmentOption } from '../api/client';
import { checkField, hasErrors, withoutEmpty, type Errors } from '../shared/validation';
import { userTexts } from './common';

/** The applications a BA admin may give a colleague (the BA's own areas). */
export const BA_USER_APPS: readonly { appId: AppId; label: string }[] = [
  { appId: 'onboard', label: 'Business Partner Onboarding' },
  { appId: 'RFP', label: 'RFP' },
  { appId: 'BillHub', label: 'Bill-Hub' },
  { appId: 'Dashboard', label: 'Performance Dashboard' },
];

type Field = 'name' | 'emailId' | 'mobileNo' | 'department' | 'appAccess';

/** What the page answers after calling the API: the server's field errors, or null when it is done. */
export type SubmitResult = Errors<string> | null;

/**
 * Add or edit a BA user (spec 000 §3 "New-user list item": name, emailId, mobileNo, baDept, appAccess). On
 * edit the e-mail and mobile are read-only: they change through the verified contact-change flow.
 */
export function BaUserForm({
  user,
  departments,
  onSubmit,
  onCancel,
}: {
  user: BaUser | null;
  departments: DepartmentOption[];
  onSubmit: (input: BaUserInput) => Promise<SubmitResult>;
  onCancel: () => void;
}) {
  const titleId = useId();
  const editing = user !== null;
  const [values, setValues] = useState({
    name: user?.baUserName ?? '',
    emailId: user?.emailId ?? '',
    mobileNo: user?.mobileNo ?? '',
    department: user?.department ?? '',
  });
  const [apps, setApps] = useState<AppId[]>(user?.appAccess.map((a) => a.appId) ?? []);
  const [errors, setErrors] = useState<Errors<string>>({});
  const [busy, setBusy] = useState(false);

  const set = (field: Exclude<Field, 'appAccess'>, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };
  const toggle = (appId: AppId, on: boolean) => {
    setApps((list) => (on ? [...list, appId] : list.filter((a) => a !== appId)));
    setErrors((e) => ({ ...e, appAccess: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = withoutEmpty<Field>({
      name: checkField(fields.name, values.name),
      emailId: checkField(fields.email, values.emailId),
      mobileNo: checkField(fields.mobile, values.mobileNo),
      department: values.department === '' ? userTexts.departmentRequired : undefined,
      appAccess: apps.length === 0 ? userTexts.noApplication : undefined,
    });
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    try {
      const serverErrors = await onSubmit({
        name: values.name.trim(),
        emailId: values.emailId.trim(),
        mobileNo: values.mobileNo.trim(),
        department: values.department,
        // In the order offered, whatever order they were ticked in.
        appAccess: BA_USER_APPS.filter((a) => apps.includes(a.appId)).map((a) => ({
          appId: a.appId,
          roleName: 'BA User',
        })),
      });
      if (serverErrors) setErrors(serverErrors);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onCancel} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <form noValidate onSubmit={submit} aria-labelledby={titleId}>
        <DialogTitle id={titleId}>{editing ? 'Edit User' : 'Add New User'}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label="Name"
              name="name"
              required
              autoFocus
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
              disabled={editing}
              value={values.emailId}
              onChange={(e) => set('emailId', e.target.value)}
              error={Boolean(errors['emailId'])}
              helperText={
                errors['emailId'] ?? (editing ? 'Changed through "Change e-mail/mobile"' : undefined)
              }
            />
            <TextField
              label="Mobile No"
              name="mobileNo"
              type="tel"
              required
              disabled={editing}
              value={values.mobileNo}
              onChange={(e) => set('mobileNo', e.target.value.replace(/\D/g, '').slice(0, 10))}
              error={Boolean(errors['mobileNo'])}
              helperText={errors['mobileNo']}
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 10 } }}
            />
            <TextField
              select
              label="Department"
              name="department"
              required
              value={values.department}
              onChange={(e) => set('department', e.target.value)}
              error={Boolean(errors['department'])}
              helperText={errors['department']}
              slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
            >
              <option value="">Select department</option>
              {departments.map((d) => (
                <option key={d.id} value={d.name}>
                  {d.name}
                </option>
              ))}
              {/* A department no longer in the list still shows on an existing user. */}
              {values.department !== '' && !departments.some((d) => d.name === values.department) && (
                <option value={values.department}>{values.department}</option>
              )}
            </TextField>
            <FormControl component="fieldset" error={Boolean(errors['appAccess'])} required>
              <FormLabel component="legend">Application access</FormLabel>
              <FormGroup row>
                {BA_USER_APPS.map((app) => (
                  <FormControlLabel
                    key={app.appId}
                    label={app.label}
                    control={
                      <Checkbox
                        checked={apps.includes(app.appId)}
                        onChange={(e) => toggle(app.appId, e.target.checked)}
                        name={app.appId}
                      />
                    }
                  />
                ))}
              </FormGroup>
              {errors['appAccess'] && <FormHelperText>{errors['appAccess']}</FormHelperText>}
            </FormControl>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {editing ? 'Save' : 'Add User'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
