import { Navigate, NavLink, Outlet } from 'react-router-dom';
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import { paths } from '../identity/routing';
import { useBa } from '../onboarding/BaContext';
import { RFP_BA_DASHBOARD_PATH, WORK_IN_PROGRESS_PATH } from './paths';

/** Spec 001 §2 "The RFP sidebar shows Dashboard; for BAs Awarded, New and Closed RFP". */
export const RFP_SIDEBAR = [
  { label: 'Dashboard', to: RFP_BA_DASHBOARD_PATH },
  { label: 'Awarded RFP', to: WORK_IN_PROGRESS_PATH },
  { label: 'New RFP', to: WORK_IN_PROGRESS_PATH },
  { label: 'Closed RFP', to: WORK_IN_PROGRESS_PATH },
] as const;

/**
 * The BA RFP pages: a verified BA's only (like '/home'; until then its place is the onboarding status), with
 * the RFP sidebar beside the page. Sits inside RequireBa, which loaded the BA.
 */
export function RfpLayout() {
  const { ba } = useBa();
  if (ba.status !== 'verified') return <Navigate to={paths.status} replace />;
  return (
    <Box sx={{ display: 'flex', gap: 3, alignItems: 'flex-start', flexDirection: { xs: 'column', md: 'row' } }}>
      <Paper component="nav" aria-label="RFP" variant="outlined" sx={{ width: { xs: '100%', md: 200 }, flexShrink: 0 }}>
        <List dense>
          {RFP_SIDEBAR.map((item) => (
            <ListItemButton key={item.label} component={NavLink} to={item.to} end>
              <ListItemText primary={item.label} />
            </ListItemButton>
          ))}
        </List>
      </Paper>
      <Box sx={{ flexGrow: 1, minWidth: 0, width: '100%' }}>
        <Outlet />
      </Box>
    </Box>
  );
}
