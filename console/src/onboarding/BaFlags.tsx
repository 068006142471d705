import { Chip } from '@mui/material';
import type { BusinessAssociate } from '../shared/types';

/** The flags a reviewer must notice in the list: lapsed documents, payments held by a bank change. */
export const BaFlags = ({ ba }: { ba: BusinessAssociate }) => (
  <>
    {ba.documentsExpired && (
      <Chip size="small" color="error" label="Documents expired" sx={{ ml: 1 }} data-testid="documents-expired-badge" />
    )}
    {ba.paymentsOnHold && (
      <Chip size="small" color="warning" label="Payments on hold" sx={{ ml: 1 }} data-testid="payments-on-hold-badge" />
    )}
  </>
);
