import { Alert, AlertTitle, Box, Link as MuiLink } from '@mui/material';
import { Link } from 'react-router-dom';
import { useCompanyLabel } from '../../shared/companies';
import type { BusinessAssociate } from '../../shared/types';
import { STATUS_LABELS } from '../views';
import type { DuplicateRow } from './types';
import { useBaItems } from './useBaItems';

const FIELD_LABELS: Record<DuplicateRow['field'], string> = {
  panNumber: 'PAN',
  gstNo: 'GSTIN',
  bankAccount: 'Bank account + IFSC',
  mobileNo: 'Mobile number',
  email: 'E-mail id',
};

/**
 * Possible duplicate vendors: other BAs (and pending registrations) sharing a PAN, GSTIN, bank account,
 * mobile number or e-mail id with this one. A warning for the reviewer, each match linking to the other BA.
 * Nothing is shown when there is no match (or the check could not be read: it is advice, not a gate).
 */
export const DuplicatesPanel = ({ record }: { record: BusinessAssociate }) => {
  const { data } = useBaItems(record.id, 'duplicates');
  const companyLabel = useCompanyLabel();
  const rows = data ?? [];
  if (rows.length === 0) return null;
  return (
    <Alert severity="warning" data-testid="duplicates-panel">
      <AlertTitle>Possible duplicate vendor</AlertTitle>
      <Box component="ul" sx={{ m: 0, pl: 2 }}>
        {rows.map((d) => (
          <li key={d.id}>
            {FIELD_LABELS[d.field] ?? d.field} {d.value} is also used by{' '}
            {d.source === 'registration' || d.otherBaId === null ? (
              <>a pending registration{d.otherCompanyName ? ` (${d.otherCompanyName})` : ''}</>
            ) : (
              <MuiLink component={Link} to={`/business-associates/${encodeURIComponent(d.otherBaId)}/show`}>
                {d.otherCompanyName ?? d.otherBaId}
              </MuiLink>
            )}
            {d.otherStatus && ` — ${STATUS_LABELS[d.otherStatus as keyof typeof STATUS_LABELS] ?? d.otherStatus}`}
            {d.otherCompanyCode && `, ${companyLabel(d.otherCompanyCode)}`}
          </li>
        ))}
      </Box>
    </Alert>
  );
};
