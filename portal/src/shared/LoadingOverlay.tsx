import Backdrop from '@mui/material/Backdrop';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';

/** The spec's full-screen loading overlay (000 §2), default message "Loading". */
export function LoadingOverlay({ open, message = 'Loading' }: { open: boolean; message?: string }) {
  // Unmounted when closed so its text never lingers, hidden, in the page.
  if (!open) return null;
  return (
    <Backdrop
      open={open}
      sx={(theme) => ({ zIndex: theme.zIndex.modal + 1, color: '#fff', flexDirection: 'column', gap: 2 })}
    >
      <CircularProgress color="inherit" aria-label={message} />
      <Typography role="status" aria-live="polite">
        {message}
      </Typography>
    </Backdrop>
  );
}
