import { Component, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** Spec 000 §2: the broken-page fallback. */
export const BROKEN_PAGE_TEXT =
  'Page Broken – Houston, we have a broken page! Please contact your administrator';

export class ErrorBoundary extends Component<{ children: ReactNode }, { broken: boolean }> {
  override state = { broken: false };

  static getDerivedStateFromError(): { broken: boolean } {
    return { broken: true };
  }

  override render() {
    if (!this.state.broken) return this.props.children;
    return (
      <Box
        role="alert"
        sx={{ minHeight: '100vh', display: 'grid', placeContent: 'center', p: 3, textAlign: 'center' }}
      >
        <Typography variant="h5" component="h1">
          {BROKEN_PAGE_TEXT}
        </Typography>
      </Box>
    );
  }
}
