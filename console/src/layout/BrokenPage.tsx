import { Box, Button, Typography } from '@mui/material';
import type { ErrorProps } from 'react-admin';

/** Spec 000 §2: the broken-page fallback and its text. */
export const BROKEN_PAGE_TITLE = 'Page Broken – Houston, we have a broken page!';
export const BROKEN_PAGE_TEXT = 'Please contact your administrator';

/** Shown when a screen throws while rendering; react-admin clears it when the user navigates elsewhere. */
export const BrokenPage = (_props: ErrorProps) => (
  <Box role="alert" sx={{ p: 4, textAlign: 'center' }}>
    <Typography variant="h5" gutterBottom>
      {BROKEN_PAGE_TITLE}
    </Typography>
    <Typography color="text.secondary" gutterBottom>
      {BROKEN_PAGE_TEXT}
    </Typography>
    <Button variant="outlined" onClick={() => window.location.reload()} sx={{ mt: 2 }}>
      Reload
    </Button>
  </Box>
);
