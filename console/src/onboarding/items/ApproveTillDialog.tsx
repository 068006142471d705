import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';

export const APPROVED_TILL_REQUIRED = 'Please enter the approved till date';

export type ApproveTillDialogProps = {
  open: boolean;
  itemName: string;
  /** Required when the document carries a validity date (the API refuses without one). */
  required: boolean;
  /** Prefilled: the validity date the BA gave. */
  initial: string | null;
  isPending: boolean;
  onCancel: () => void;
  onConfirm: (approvedTill: string | null) => void;
};

/** Approving a document: "approved till" (YYYY-MM-DD), prefilled with the document's validity date. */
export const ApproveTillDialog = (props: ApproveTillDialogProps) => {
  const { open, itemName, required, initial, isPending, onCancel, onConfirm } = props;
  const [value, setValue] = useState(initial ?? '');
  const [touched, setTouched] = useState(false);
  const error = required && value === '' ? APPROVED_TILL_REQUIRED : null;
  const showError = touched && error !== null;
  return (
    <Dialog
      open={open}
      onClose={isPending ? undefined : onCancel}
      fullWidth
      maxWidth="xs"
      aria-labelledby="approve-till-title"
      slotProps={{
        transition: {
          onEnter: () => {
            setValue(initial ?? '');
            setTouched(false);
          },
        },
      }}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTouched(true);
          if (error !== null || isPending) return;
          onConfirm(value === '' ? null : value);
        }}
      >
        <DialogTitle id="approve-till-title">Approve {itemName}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            {required
              ? 'The document is approved until this date; reminders go out before it lapses.'
              : 'This document has no validity date; an approved-till date is optional.'}
          </DialogContentText>
          <TextField
            type="date"
            label={required ? 'Approved till' : 'Approved till (optional)'}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            onBlur={() => setTouched(true)}
            required={required}
            error={showError}
            helperText={showError ? error : ' '}
            fullWidth
            disabled={isPending}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'approved-till' } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel} disabled={isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" color="success" disabled={isPending}>
            Approve
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
