import Alert from '@mui/material/Alert';
import MuiSnackbar from '@mui/material/Snackbar';

/** Spec 000 §9: snackbars hide themselves after 2500 ms. */
export const SNACKBAR_AUTO_HIDE_MS = 2500;

export type SnackbarVariant = 'success' | 'error' | 'info' | 'warning';

export type SnackbarProps = {
  open: boolean;
  message: string;
  variant?: SnackbarVariant;
  onClose: () => void;
};

/** The spec's top-centre snackbar; errors use the error variant. */
export function Snackbar({ open, message, variant = 'success', onClose }: SnackbarProps) {
  return (
    <MuiSnackbar
      open={open}
      autoHideDuration={SNACKBAR_AUTO_HIDE_MS}
      anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
      onClose={(_event, reason) => {
        // A click elsewhere must not swallow the message before it can be read.
        if (reason !== 'clickaway') onClose();
      }}
    >
      <Alert severity={variant} variant="filled" onClose={onClose} sx={{ width: '100%' }}>
        {message}
      </Alert>
    </MuiSnackbar>
  );
}
