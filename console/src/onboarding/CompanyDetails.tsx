import { Box, Typography } from '@mui/material';
import { SectionCard } from '../shared/SectionCard';
import { display } from '../../../domain/src/shared/format';
import type { BusinessAssociate } from '../shared/types';
import { DETAIL_LABELS } from './labels';

type Item = { label: string; value: unknown; wide?: boolean };

/** The company details as the BA entered them, with service, state and city by name rather than id. */
export const CompanyDetails = ({ record }: { record: BusinessAssociate }) => {
  const d = record.details;
  const items: Item[] = [
    { label: DETAIL_LABELS['companyName']!, value: d?.companyName ?? record.companyName },
    { label: DETAIL_LABELS['panNumber']!, value: d?.panNumber ?? record.panNumber },
    { label: DETAIL_LABELS['cinNumber']!, value: d?.cinNumber },
    { label: DETAIL_LABELS['serviceId']!, value: record.serviceName },
    { label: DETAIL_LABELS['contactPersonName']!, value: d?.contactPersonName ?? record.contactPersonName },
    {
      label: DETAIL_LABELS['contactPersonMobileNumber']!,
      value: d?.contactPersonMobileNumber ?? record.contactPersonMobileNumber,
    },
    { label: DETAIL_LABELS['companyLandline']!, value: d?.companyLandline },
    { label: DETAIL_LABELS['addressLine1']!, value: d?.addressLine1, wide: true },
    { label: DETAIL_LABELS['addressLine2']!, value: d?.addressLine2, wide: true },
    { label: DETAIL_LABELS['cityId']!, value: record.cityName },
    { label: DETAIL_LABELS['stateId']!, value: record.stateName },
    { label: DETAIL_LABELS['pinCode']!, value: d?.pinCode },
    { label: DETAIL_LABELS['ownFleet']!, value: d?.ownFleet },
    { label: DETAIL_LABELS['attachedFleet']!, value: d?.attachedFleet },
  ];
  return (
    <SectionCard title="Company details">
      <Box
        component="dl"
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: '1fr 1fr 1fr' },
          gap: 2,
          m: 0,
        }}
      >
        {items.map((item) => (
          <Box key={item.label} sx={{ gridColumn: item.wide ? { sm: 'span 2', md: 'span 3' } : undefined }}>
            <Typography component="dt" variant="caption" color="text.secondary">
              {item.label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-word' }}>
              {display(item.value)}
            </Typography>
          </Box>
        ))}
      </Box>
    </SectionCard>
  );
};
