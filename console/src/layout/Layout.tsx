import type { ReactNode } from 'react';
import { AppBar, Layout, TitlePortal } from 'react-admin';
import { Box, Typography } from '@mui/material';
import { BrokenPage } from './BrokenPage';
import { ConsoleMenu } from './Menu';

const ConsoleAppBar = () => (
  <AppBar color="primary">
    <TitlePortal />
    <Box sx={{ flex: 1 }} />
    <Typography variant="subtitle2" sx={{ mr: 2, opacity: 0.85, display: { xs: 'none', sm: 'block' } }}>
      Business Partner Onboarding
    </Typography>
  </AppBar>
);

export const ConsoleLayout = ({ children }: { children: ReactNode }) => (
  <Layout appBar={ConsoleAppBar} menu={ConsoleMenu} error={BrokenPage}>
    {children}
  </Layout>
);
