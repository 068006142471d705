import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { messages } from '../../../domain/src/validation/fields';
import { rfpCommand, type RfpVerb } from './api';
import { useRfpCommand } from './useRfpCommand';

/** Close bidding, Close and Reopen: a sentence, at most one field, and the command. */
export type RfpCommandSpec = {
  verb: Exclude<RfpVerb, 'award'>;
  title: string;
  text: string;
  submitLabel: string;
  success: string;
  field?: { name: string; label: string; kind: 'date' | 'text'; required: boolean };
  danger?: boolean;
};

/** Spec 001 §9 "Maximum text length 260". */
const MAX_TEXT = 260;

export const RfpCommandDialog = ({ code, spec, open, onClose }: { code: string; spec: RfpCommandSpec; open: boolean; onClose: () => void }) => {
  const [value, setValue] = useState('');
  const [touched, setTouched] = useState(false);
  const command = useRfpCommand((body: Record<string, unknown>, key) => rfpCommand(code, spec.verb, body, key), onClose);
  const field = spec.field;
  const missing = Boolean(field?.required) && touched && value.trim() === '';

  const submit = () => {
    setTouched(true);
    if (command.isPending) return;
    if (field?.required && value.trim() === '') return;
    const body = field && value.trim() !== '' ? { [field.name]: value.trim() } : {};
    command.run({ ...body, success: spec.success });
  };

  return (
    <Dialog
      open={open}
      onClose={command.isPending ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby={`rfp-${spec.verb}-title`}
      slotProps={{
        transition: {
          onEnter: () => {
            setValue('');
            setTouched(false);
            command.reset();
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
        <DialogTitle id={`rfp-${spec.verb}-title`}>{spec.title}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{spec.text}</DialogContentText>
          {field && (
            <TextField
              label={field.label}
              type={field.kind === 'date' ? 'date' : 'text'}
              value={value}
              onChange={(e) => setValue(e.target.value)}
              required={field.required}
              error={missing}
              helperText={missing ? messages.required : ' '}
              fullWidth
              multiline={field.kind === 'text'}
              minRows={field.kind === 'text' ? 2 : undefined}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { maxLength: MAX_TEXT } }}
            />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={command.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" color={spec.danger ? 'error' : 'primary'} disabled={command.isPending}>
            {spec.submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
