import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { MAX_TEXT_LENGTH, messages, patterns } from '../../../domain/src/validation/fields';

/** The BA withdraws an invoice still Submitted (contract: revoke, remarks optional); it cannot be undone. */
export function RevokeDialog({ open, onRevoke, onCancel }: { open: boolean; onRevoke: (remarks: string) => void; onCancel: () => void }) {
  const [remarks, setRemarks] = useState('');
  const [error, setError] = useState<string | null>(null);
  const confirm = () => {
    const text = remarks.trim();
    if (text.length > MAX_TEXT_LENGTH) return setError(messages.tooLong);
    if (patterns.forbiddenLeading.test(text)) return setError(messages.leadingCharacter);
    onRevoke(text);
  };
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby="revoke-invoice-title" fullWidth maxWidth="sm">
      <DialogTitle id="revoke-invoice-title">Revoke invoice</DialogTitle>
      <DialogContent>
        <DialogContentText>The invoice is withdrawn for good; its number stays used.</DialogContentText>
        <TextField
          label="Remarks"
          fullWidth
          multiline
          minRows={2}
          margin="normal"
          value={remarks}
          onChange={(e) => {
            setRemarks(e.target.value);
            setError(null);
          }}
          error={error !== null}
          helperText={error ?? ' '}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button variant="contained" color="error" onClick={confirm}>
          Revoke
        </Button>
      </DialogActions>
    </Dialog>
  );
}
