import { Button } from '@mui/material';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import { usePermissions, useRecordContext } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import type { BusinessAssociate } from '../shared/types';
import { mayReadSap } from './access';
import { sapViewPath } from './paths';

/** "SAP / ERP" on the BA page: the BA's ERP page, once the BA is verified (before that it has no vendor code). */
export const SapLinkButton = () => {
  const record = useRecordContext<BusinessAssociate>();
  const { permissions } = usePermissions<string[]>();
  if (!record || record.status !== 'verified' || !mayReadSap(permissions)) return null;
  return (
    <Button component={RouterLink} to={sapViewPath(String(record.id))} size="small" startIcon={<AccountTreeIcon />}>
      SAP / ERP
    </Button>
  );
};
