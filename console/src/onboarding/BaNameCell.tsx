import { Box, Typography } from '@mui/material';
import { baLabel, filled, type NamedBa } from './baName';

/** A list cell naming a BA: the company name, or the registered e-mail id with the mobile number under it. */
export const BaNameCell = ({ ba }: { ba: NamedBa }) => {
  if (filled(ba.companyName) || !filled(ba.registeredEmail)) return <>{baLabel(ba)}</>;
  return (
    <Box component="span" sx={{ display: 'inline-flex', flexDirection: 'column' }}>
      <span>{ba.registeredEmail}</span>
      {filled(ba.registeredMobile) && (
        <Typography component="span" variant="caption" color="text.secondary">
          {ba.registeredMobile}
        </Typography>
      )}
    </Box>
  );
};
