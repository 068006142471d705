import type { ReactNode } from 'react';
import { AppBar, Layout, LoadingIndicator, TitlePortal } from 'react-admin';
import { Box, Typography } from '@mui/material';
import { CompanySelector } from '../identity/CompanySelector';
import { ConsoleUserMenu } from '../identity/ConsoleUserMenu';
import { WhatsNew } from '../releases/WhatsNew';
import { NotificationBell } from '../notifications/NotificationBell';
import { SapModuleButton } from '../vendor-code/SapModuleButton';
import { BrokenPage } from './BrokenPage';
import { ConsoleMenu } from './Menu';
import { SessionGate } from './SessionGate';

/** Spec 000 §2 "Header" for staff: the company-code selector and the profile menu. */
const ConsoleAppBar = () => (
  <AppBar color="primary" userMenu={<ConsoleUserMenu />} toolbar={<LoadingIndicator />}>
    <TitlePortal />
    <Box sx={{ flex: 1 }} />
    <Typography variant="subtitle2" sx={{ mr: 2, opacity: 0.85, display: { xs: 'none', md: 'block' } }}>
      Business Partner Onboarding
    </Typography>
    <SapModuleButton />
    <WhatsNew />
    <NotificationBell />
    <CompanySelector />
  </AppBar>
);

/** Nothing of the console renders, and nothing is fetched for it, before the session is known. */
export const ConsoleLayout = ({ children }: { children: ReactNode }) => (
  <SessionGate>
    <Layout appBar={ConsoleAppBar} menu={ConsoleMenu} error={BrokenPage}>
      {children}
    </Layout>
  </SessionGate>
);
