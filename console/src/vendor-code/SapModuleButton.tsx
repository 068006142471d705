import { Button } from '@mui/material';
import { usePermissions } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { mayReadSap } from './access';
import { sapDashboardPath } from './paths';

/** The header's SAP module button (spec 000 §2 "Header": module buttons … SAP …) → the SAP dashboard. */
export const SapModuleButton = () => {
  const { permissions } = usePermissions<string[]>();
  if (!mayReadSap(permissions)) return null;
  return (
    <Button component={RouterLink} to={sapDashboardPath('all')} color="inherit" size="small" sx={{ mr: 1 }}>
      SAP
    </Button>
  );
};
