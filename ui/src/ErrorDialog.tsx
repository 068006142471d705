import { useId, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';

export type ErrorDialogProps = {
  open: boolean;
  message: ReactNode;
  onClose: () => void;
  /** Runs once the closing animation has finished, e.g. to drop the message only then. */
  onExited?: () => void;
  title?: string;
};

/**
 * The spec's modal error dialog (spec 000 §2 "Shared interface behaviour"), the same in the console and the
 * portal: the message with its whitespace preserved, so multi-line server messages and field lists stay
 * readable, and a close button.
 */
export function ErrorDialog({ open, message, onClose, onExited, title = 'Error' }: ErrorDialogProps) {
  const id = useId();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-message`}
      maxWidth="sm"
      fullWidth
      slotProps={{ transition: { onExited } }}
    >
      <DialogTitle id={`${id}-title`} sx={{ color: 'error.main' }}>
        {title}
      </DialogTitle>
      <DialogContent>
        <Typography
          id={`${id}-message`}
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
}
