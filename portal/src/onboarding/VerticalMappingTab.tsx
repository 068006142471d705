import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { VerticalMapping } from '../../../domain/src/onboarding/items';
import { useApi } from '../api/ApiContext';
import type { VerticalMappingRow } from '../api/onboarding';
import { useFeedback } from '../shared/feedback';
import { useItems, useMaster } from './ItemsContext';
import { CheckboxGroup, lockedText, ReviewStatusView, TabIntro, useFailure, useLoaded, type Errors } from './itemFields';
import { validateVerticalMapping } from './itemValidation';

export const verticalTexts = { saved: 'Vertical mapping saved successfully' } as const;

type Key = keyof VerticalMapping;
export const VERTICAL_LABELS: Record<Key, string> = {
  verticalIds: 'Verticals',
  subServiceIds: 'Sub-services',
  vehicleTypeIds: 'Vehicle Types',
  zoneIds: 'Zones',
  pickupZoneIds: 'Pickup Zones',
  deliveryZoneIds: 'Delivery Zones',
};

const EMPTY: VerticalMapping = {
  verticalIds: [],
  subServiceIds: [],
  vehicleTypeIds: [],
  zoneIds: [],
  pickupZoneIds: [],
  deliveryZoneIds: [],
};

const pick = (row: VerticalMappingRow | null): VerticalMapping =>
  row ? Object.fromEntries((Object.keys(EMPTY) as Key[]).map((k) => [k, row[k] ?? []])) as VerticalMapping : EMPTY;

/** Vertical Mapping tab (spec 000 §3): the verticals, services, vehicles and zones the BA works in. */
export function VerticalMappingTab() {
  const { lists } = useItems();
  if (lists.verticalMapping === null) return null;
  return <VerticalMappingForm key={JSON.stringify(pick(lists.verticalMapping))} row={lists.verticalMapping} />;
}

function VerticalMappingForm({ row }: { row: VerticalMappingRow }) {
  const client = useApi();
  const { reload, api, canChange, editable } = useItems();
  const { notify, withLoading } = useFeedback();
  const failed = useFailure();
  const verticals = useMaster('verticals');
  const vehicleTypes = useMaster('vehicleTypes');
  const zones = useMaster('zones');
  const [services] = useLoaded(() => client.services(), 'services');
  const [values, setValues] = useState<VerticalMapping>(() => pick(row));
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const changeable = canChange(row.reviewStatus);
  const locked = editable && !changeable;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const checked = validateVerticalMapping(values);
    if (!checked.ok) return setErrors(checked.errors);
    setBusy(true);
    try {
      await withLoading(() => api.saveVerticalMapping(checked.data), 'Saving');
      notify(verticalTexts.saved);
      await reload('verticalMapping');
    } catch (e) {
      failed(e, setErrors);
    } finally {
      setBusy(false);
    }
  };

  const group = (key: Key, options: { id: number; name: string }[] | null) =>
    options && (
      <CheckboxGroup
        legend={VERTICAL_LABELS[key]}
        name={key}
        options={options}
        selected={values[key]}
        required={key === 'verticalIds'}
        error={errors[key]}
        disabled={busy || !changeable}
        onChange={(ids) => {
          setValues((v) => ({ ...v, [key]: ids }));
          setErrors((e) => ({ ...e, [key]: undefined }));
        }}
      />
    );

  return (
    <Box component="form" noValidate aria-label="Vertical mapping" onSubmit={(e) => void submit(e)}>
      <Stack spacing={2}>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'flex-start' }}>
          <TabIntro>Choose at least one vertical, and the services, vehicles and zones you work with.</TabIntro>
          <ReviewStatusView status={row.reviewStatus} remarks={row.reviewRemarks} testId="vertical-review" />
        </Stack>
        {locked && <Alert severity="info">{lockedText}</Alert>}
        {group('verticalIds', verticals)}
        {group('subServiceIds', services)}
        {group('vehicleTypeIds', vehicleTypes)}
        {group('zoneIds', zones)}
        {group('pickupZoneIds', zones)}
        {group('deliveryZoneIds', zones)}
        {changeable && (
          <Box sx={{ textAlign: 'right' }}>
            <Button type="submit" variant="contained" disabled={busy} data-testid="save-verticalMapping">
              Save vertical mapping
            </Button>
          </Box>
        )}
      </Stack>
    </Box>
  );
}
