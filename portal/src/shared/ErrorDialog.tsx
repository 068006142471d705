import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';

export type ErrorDialogProps = {
  open: boolean;
  message: string;
  title?: string;
  onClose: () => void;
};

/** The spec's modal error dialog (000 §2): the message with its whitespace kept, and a close button. */
export function ErrorDialog({ open, message, title = 'Error', onClose }: ErrorDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby="error-dialog-title"
      aria-describedby="error-dialog-message"
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id="error-dialog-title" sx={{ color: 'error.main' }}>
        {title}
      </DialogTitle>
      <DialogContent>
        <Typography
          id="error-dialog-message"
          component="p"
          sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
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
