import { useState } from 'react';
import {
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  MenuItem,
  TextField,
} from '@mui/material';
import { messages } from '../../../domain/src/validation/fields';
import { useItemAction } from '../onboarding/items/useItemAction';
import { MasterSelect, type MasterSelectProps } from './MasterSelect';
import type { VendorCodeVerb } from './api';

export type CommandField =
  | { kind: 'master'; name: string; label: string; resource: string; optionText: MasterSelectProps['optionText']; required?: boolean }
  | { kind: 'select'; name: string; label: string; choices: { id: string; name: string }[]; required?: boolean }
  | { kind: 'text'; name: string; label: string; required?: boolean }
  | { kind: 'checkbox'; name: string; label: string };

export type CommandSpec = {
  title: string;
  verb: VendorCodeVerb;
  /** A sentence above the fields (a confirmation has only this). */
  text?: string;
  fields: CommandField[];
  /** The command's body beyond the company code, from the field values. */
  body: (values: Record<string, string | boolean>) => Record<string, unknown>;
  /** The snackbar when the API's answer has no message of its own. */
  success: string;
  submitLabel: string;
  danger?: boolean;
};

const initialValues = (fields: CommandField[]) =>
  Object.fromEntries(fields.map((f) => [f.name, f.kind === 'checkbox' ? false : ''])) as Record<string, string | boolean>;

/**
 * One vendor-code command (POST /api/business-associates/:id/vendor-codes/<verb>) as a dialog: the fields the
 * spec names for it, required ones checked before sending, one Idempotency-Key per user action (useItemAction:
 * a 409/422 closes the dialog and reads the page again, so it offers only what is possible now).
 */
export const SapCommandDialog = ({
  baId,
  companyCode,
  spec,
  open,
  onClose,
}: {
  baId: string;
  companyCode: string;
  spec: CommandSpec;
  open: boolean;
  onClose: () => void;
}) => {
  const [values, setValues] = useState(() => initialValues(spec.fields));
  const [touched, setTouched] = useState(false);
  const action = useItemAction(baId, onClose);
  const missing = (f: CommandField) => f.kind !== 'checkbox' && f.required && touched && !String(values[f.name] ?? '').trim();
  const set = (name: string, v: string | boolean) => setValues((old) => ({ ...old, [name]: v }));

  const submit = () => {
    setTouched(true);
    if (action.isPending) return;
    if (spec.fields.some((f) => f.kind !== 'checkbox' && f.required && !String(values[f.name] ?? '').trim())) return;
    action.run({ path: `vendor-codes/${spec.verb}`, body: { companyCode, ...spec.body(values) }, success: spec.success });
  };

  return (
    <Dialog
      open={open}
      onClose={action.isPending ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby={`sap-${spec.verb}-title`}
      slotProps={{
        transition: {
          onEnter: () => {
            setValues(initialValues(spec.fields));
            setTouched(false);
            action.reset();
          },
        },
      }}
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <DialogTitle id={`sap-${spec.verb}-title`}>{spec.title}</DialogTitle>
        <DialogContent>
          {spec.text && <DialogContentText sx={{ mb: 1 }}>{spec.text}</DialogContentText>}
          <Box sx={{ display: 'grid', gap: 1, pt: 1 }}>
            {spec.fields.map((f) => {
              const error = missing(f) ? messages.required : null;
              switch (f.kind) {
                case 'master':
                  return (
                    <MasterSelect
                      key={f.name}
                      resource={f.resource}
                      label={f.label}
                      value={String(values[f.name] ?? '')}
                      onChange={(v) => set(f.name, v)}
                      optionText={f.optionText}
                      required={f.required}
                      error={error}
                      testId={`sap-${f.name}`}
                    />
                  );
                case 'select':
                  return (
                    <TextField
                      key={f.name}
                      select
                      label={f.label}
                      value={String(values[f.name] ?? '')}
                      onChange={(e) => set(f.name, e.target.value)}
                      required={f.required}
                      error={Boolean(error)}
                      helperText={error ?? ' '}
                      fullWidth
                    >
                      {f.choices.map((c) => (
                        <MenuItem key={c.id} value={c.id}>
                          {c.name}
                        </MenuItem>
                      ))}
                    </TextField>
                  );
                case 'text':
                  return (
                    <TextField
                      key={f.name}
                      label={f.label}
                      value={String(values[f.name] ?? '')}
                      onChange={(e) => set(f.name, e.target.value)}
                      required={f.required}
                      error={Boolean(error)}
                      helperText={error ?? ' '}
                      multiline
                      minRows={2}
                      fullWidth
                      slotProps={{ htmlInput: { maxLength: 260 } }}
                    />
                  );
                case 'checkbox':
                  return (
                    <FormControlLabel
                      key={f.name}
                      control={
                        <Checkbox checked={Boolean(values[f.name])} onChange={(e) => set(f.name, e.target.checked)} />
                      }
                      label={f.label}
                    />
                  );
              }
            })}
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={action.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" color={spec.danger ? 'error' : 'primary'} disabled={action.isPending}>
            {spec.submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
