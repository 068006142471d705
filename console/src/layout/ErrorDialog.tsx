import type { ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';

export type ErrorDialogProps = {
  open: boolean;
  message: ReactNode;
  onClose: () => void;
  onExited?: () => void;
  title?: string;
};

/**
 * The spec's modal error dialog (spec 000 §2 "Shared interface behaviour"): the message with its whitespace
 * preserved, so multi-line server messages and field lists stay readable, and a close button.
 */
export const ErrorDialog = ({ open, message, onClose, onExited, title = 'Error' }: ErrorDialogProps) => (
  <Dialog
    open={open}
    onClose={onClose}
    aria-labelledby="console-error-dialog-title"
    maxWidth="sm"
    fullWidth
    slotProps={{ transition: { onExited } }}
  >
    <DialogTitle id="console-error-dialog-title" sx={{ color: 'error.main' }}>
      {title}
    </DialogTitle>
    <DialogContent>
      <Typography
        component="div"
        sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
        data-testid="error-message"
      >
        {message}
      </Typography>
    </DialogContent>
    <DialogActions>
      <Button onClick={onClose} variant="contained" autoFocus>
        Close
      </Button>
    </DialogActions>
  </Dialog>
);
