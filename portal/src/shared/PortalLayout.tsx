import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import LogoutIcon from '@mui/icons-material/Logout';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import { useSession } from '../identity/session';
import { useOptionalBa } from '../onboarding/BaContext';

/** The BA header (spec 000 §2 "Header", the parts this release has): the BA's company name and Logout. */
export function PortalLayout({ children }: { children: ReactNode }) {
  const { user, logout } = useSession();
  const ba = useOptionalBa();
  const navigate = useNavigate();
  const companyName = ba?.companyName ?? ba?.details?.companyName ?? null;

  const onLogout = async () => {
    await logout();
    navigate('/', { replace: true });
  };

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <AppBar position="sticky" elevation={0}>
        <Toolbar sx={{ gap: { xs: 1, sm: 2 } }}>
          <LocalShippingIcon aria-hidden sx={{ display: { xs: 'none', sm: 'block' } }} />
          <Box sx={{ minWidth: 0, flexGrow: 1 }}>
            <Typography variant="caption" component="div" sx={{ opacity: 0.85, lineHeight: 1.2 }}>
              Business Partner Onboarding
            </Typography>
            <Typography
              variant="h6"
              component="div"
              noWrap
              data-testid="header-company-name"
              sx={{ lineHeight: 1.3, fontSize: { xs: '1rem', sm: '1.15rem' } }}
            >
              {companyName ?? 'Your company'}
            </Typography>
          </Box>
          {user && (
            <Typography variant="body2" noWrap sx={{ display: { xs: 'none', md: 'block' }, opacity: 0.9 }}>
              {user.name}
            </Typography>
          )}
          <Button
            color="inherit"
            variant="outlined"
            size="small"
            startIcon={<LogoutIcon />}
            onClick={onLogout}
          >
            Logout
          </Button>
        </Toolbar>
      </AppBar>
      <Container component="main" maxWidth="lg" sx={{ py: { xs: 2, sm: 4 }, flexGrow: 1 }}>
        {children}
      </Container>
    </Box>
  );
}
