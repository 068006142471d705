import { Box, Chip, Stack, Typography } from '@mui/material';
import { useGetMany } from 'react-admin';
import { SectionCard } from '../../shared/SectionCard';
import type { BusinessAssociate } from '../../shared/types';
import { itemName, type NamedItem } from '../labels';
import { itemReviewOpen } from './access';
import { ItemReviewButtons } from './ItemReviewButtons';
import { ReviewStatusChip } from './ReviewStatusChip';
import { SectionState } from './SectionState';
import type { VerticalMappingRow } from './types';
import { useBaItems } from './useBaItems';

export const VERTICAL_MAPPING_MESSAGES = {
  approved: 'Vertical mapping approved successfully',
  rejected: 'Vertical mapping rejected successfully',
};

type Group = { key: keyof VerticalMappingRow; label: string; resource: string };
const GROUPS: Group[] = [
  { key: 'verticalIds', label: 'Verticals', resource: 'verticals' },
  { key: 'subServiceIds', label: 'Sub-services', resource: 'services' },
  { key: 'vehicleTypeIds', label: 'Vehicle types', resource: 'vehicle-types' },
  { key: 'zoneIds', label: 'Zones', resource: 'zones' },
  { key: 'pickupZoneIds', label: 'Pickup zones', resource: 'zones' },
  { key: 'deliveryZoneIds', label: 'Delivery zones', resource: 'zones' },
];


/** One group's master items by name (the id while names load or when the master has no such item). */
const GroupChips = ({ group, ids }: { group: Group; ids: number[] }) => {
  const { data } = useGetMany<NamedItem>(group.resource, { ids });
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '160px 1fr' }, gap: 1, py: 0.5 }}>
      <Typography variant="body2" color="text.secondary">
        {group.label}
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
        {ids.length === 0 ? (
          <Typography variant="body2">NA</Typography>
        ) : (
          ids.map((id) => <Chip key={id} size="small" label={itemName(data?.find((r) => r.id === id), id)} />)
        )}
      </Stack>
    </Box>
  );
};

/** The verticals, sub-services, vehicle types and zones the BA works in; approved or rejected with remarks. */
export const VerticalMappingSection = ({ record, canReview }: { record: BusinessAssociate; canReview: boolean }) => {
  const { data, isPending, error } = useBaItems(record.id, 'vertical-mapping');
  const saved = data && data.reviewStatus !== null ? data : null;
  return (
    <SectionCard
      title="Vertical mapping"
      action={saved && <ReviewStatusChip status={saved.reviewStatus} remarks={saved.reviewRemarks} />}
    >
      <SectionState isPending={isPending} error={error} empty={!saved} emptyText="No vertical mapping saved yet." what="vertical mapping">
        {saved && (
          <Box data-testid="vertical-mapping">
            {GROUPS.map((g) => (
              <GroupChips key={g.key} group={g} ids={(saved[g.key] as number[] | undefined) ?? []} />
            ))}
            {canReview && itemReviewOpen(record, 'vertical-mapping') && (
              <Box sx={{ mt: 1 }}>
                <ItemReviewButtons
                  baId={record.id}
                  itemPath="vertical-mapping"
                  itemName="vertical mapping"
                  reviewStatus={saved.reviewStatus}
                  approveWith={{ kind: 'confirm' }}
                  messages={VERTICAL_MAPPING_MESSAGES}
                  testId="vertical-mapping"
                />
              </Box>
            )}
          </Box>
        )}
      </SectionState>
    </SectionCard>
  );
};
