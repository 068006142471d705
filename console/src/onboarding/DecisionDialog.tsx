import { useState, type ReactNode } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
} from '@mui/material';
import { MAX_TEXT_LENGTH } from '../../../domain/src/validation/fields';
import { remarksError } from './decision';

export type DecisionDialogProps = {
  open: boolean;
  title: string;
  text: ReactNode;
  confirmLabel: string;
  confirmColor: 'primary' | 'error' | 'success';
  remarksRequired: boolean;
  /** What the text field asks for: "Remarks" for a decision, "Reason" for a block. */
  fieldLabel?: string;
  isPending: boolean;
  onCancel: () => void;
  onConfirm: (remarks: string | null) => void;
};

/** The confirmation dialog of a staff decision, with remarks (required for a rejection) or a reason. */
export const DecisionDialog = (props: DecisionDialogProps) => {
  const { open, title, text, confirmLabel, confirmColor, remarksRequired, isPending } = props;
  const { onCancel, onConfirm, fieldLabel = 'Remarks' } = props;
  const [remarks, setRemarks] = useState('');
  const [touched, setTouched] = useState(false);
  const error = remarksError(remarks, remarksRequired);
  const showError = touched && error !== null;

  const submit = () => {
    setTouched(true);
    if (error !== null || isPending) return;
    const trimmed = remarks.trim();
    onConfirm(trimmed === '' ? null : trimmed);
  };

  return (
    <Dialog
      open={open}
      onClose={isPending ? undefined : onCancel}
      fullWidth
      maxWidth="sm"
      aria-labelledby="decision-dialog-title"
      slotProps={{
        transition: {
          onExited: () => {
            setRemarks('');
            setTouched(false);
          },
        },
      }}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <DialogTitle id="decision-dialog-title">{title}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{text}</DialogContentText>
          <TextField
            label={remarksRequired ? fieldLabel : `${fieldLabel} (optional)`}
            value={remarks}
            onChange={(event) => setRemarks(event.target.value)}
            onBlur={() => setTouched(true)}
            required={remarksRequired}
            error={showError}
            helperText={showError ? error : `${remarks.trim().length}/${MAX_TEXT_LENGTH}`}
            multiline
            minRows={3}
            fullWidth
            autoFocus
            disabled={isPending}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel} disabled={isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" color={confirmColor} disabled={isPending || showError}>
            {confirmLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
