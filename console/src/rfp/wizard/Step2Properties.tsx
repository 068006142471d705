import { useState } from 'react';
import { Alert, Box, Button, Checkbox, FormControlLabel, FormGroup, FormHelperText, Typography } from '@mui/material';
import { useGetList } from 'react-admin';
import type { RfpPropertyOwner } from '../../../../domain/src/masters/definitions';
import { RFP_TYPES, type RfpType } from '../../../../domain/src/rfp/model';
import { parseWith, rfpStep2Schema } from '../../../../domain/src/rfp/rules';
import { MasterSelect } from '../../vendor-code/MasterSelect';
import type { RfpCommandAnswer, RfpStaffView } from '../types';
import { saveRfpStep } from './api';
import { useWizardSave } from './useWizardSave';

type MasterItem = { id: number | string } & Record<string, unknown>;
type Property = { id: number | string; key: string; label: string; owner: RfpPropertyOwner; rfpTypeIds?: unknown };

const ACTIVE_PAGE = { pagination: { page: 1, perPage: 100 }, sort: { field: 'id', order: 'ASC' as const } };

const OWNERS: { owner: RfpPropertyOwner; label: string; field: 'mllProperties' | 'baProperties' | 'dynamicInfo' }[] = [
  { owner: 'mll', label: 'MLL properties', field: 'mllProperties' },
  { owner: 'ba', label: 'BA properties', field: 'baProperties' },
  { owner: 'dynamic', label: 'Dynamic info', field: 'dynamicInfo' },
];
type Chosen = Record<(typeof OWNERS)[number]['field'], string[]>;

export const STEP2_TEXTS = {
  chooseType: 'Choose an RFP type to see its properties',
  noFlags: 'No required flags are set for this pair: MLL columns follow each property, and BAs need not quote every lane',
  flags: (mll: boolean, ba: boolean) => `Required by MLL: ${mll ? 'Yes' : 'No'} · Required by BA: ${ba ? 'Yes' : 'No'}`,
} as const;

const yes = (v: unknown) => v === true || v === 'true' || v === 1;
const isRfpType = (v: unknown): v is RfpType => typeof v === 'string' && (RFP_TYPES as readonly string[]).includes(v);
/** A `refs` field holds the ids it points at; the API filters on it, this keeps a stale page honest too. */
const listsType = (p: Property, typeId: string) => !Array.isArray(p.rfpTypeIds) || p.rfpTypeIds.map(String).includes(typeId);

/**
 * Step 2: the vehicle hire type and RFP type (masters), the pair's required flags, and the RFP type's properties
 * by owner (GET /api/rfp-properties?filter={"rfpTypeIds":id}), chosen as three lists. Save → PUT steps/2 with the
 * chosen property keys; the server builds the lane columns from them.
 */
export const Step2Properties = ({ rfp, onSaved }: { rfp: RfpStaffView; onSaved: (answer: RfpCommandAnswer) => void }) => {
  const saved = rfp.steps[2];
  const [hireTypeId, setHireTypeId] = useState(saved ? String(saved.vehicleHireType) : '');
  const [typeId, setTypeId] = useState(saved ? String(saved.typeId) : '');
  const [chosen, setChosen] = useState<Chosen>({
    mllProperties: saved?.mllProperties ?? [],
    baProperties: saved?.baProperties ?? [],
    dynamicInfo: saved?.dynamicInfo ?? [],
  });
  const [errors, setErrors] = useState<Record<string, string>>({});

  const types = useGetList<MasterItem>('rfp-types', { ...ACTIVE_PAGE, filter: { status: 'active' } });
  const properties = useGetList<Property>(
    'rfp-properties',
    { pagination: { page: 1, perPage: 100 }, sort: { field: 'columnOrder', order: 'ASC' }, filter: { rfpTypeIds: Number(typeId), status: 'active' } },
    { enabled: typeId !== '' },
  );
  const flags = useGetList<MasterItem>(
    'rfp-required-flags',
    { ...ACTIVE_PAGE, filter: { hireTypeId: Number(hireTypeId), rfpTypeId: Number(typeId), status: 'active' } },
    { enabled: typeId !== '' && hireTypeId !== '' },
  );
  const flagRow = (flags.data ?? []).find((f) => String(f['hireTypeId']) === hireTypeId && String(f['rfpTypeId']) === typeId);
  const typeCode = (types.data ?? []).find((t) => String(t.id) === typeId)?.['code'];
  const offered = (properties.data ?? []).filter((p) => listsType(p, typeId));

  const save = useWizardSave((body: unknown, key: string) => saveRfpStep(rfp.rfpCode, 2, body, key), (answer) => onSaved(answer));

  const chooseType = (next: string) => {
    setTypeId(next);
    // Another type has other properties: what was chosen for the last one does not carry over.
    if (next !== typeId) setChosen({ mllProperties: [], baProperties: [], dynamicInfo: [] });
  };
  const toggle = (field: keyof Chosen, key: string, on: boolean) =>
    setChosen((prev) => ({ ...prev, [field]: on ? [...prev[field], key] : prev[field].filter((k) => k !== key) }));

  const submit = () => {
    const body = { vehicleHireType: hireTypeId, typeId, rfpType: isRfpType(typeCode) ? typeCode : '', ...chosen };
    const parsed = parseWith(rfpStep2Schema, body);
    if ('errors' in parsed) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    save.run(parsed.data);
  };

  return (
    <Box sx={{ display: 'grid', gap: 2 }} component="form" noValidate aria-label="Properties" onSubmit={(e) => { e.preventDefault(); submit(); }}>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: 2 }}>
        <MasterSelect
          resource="vehicle-hire-types"
          label="Vehicle hire type"
          value={hireTypeId}
          onChange={setHireTypeId}
          optionText={(item) => String(item['name'] ?? item.id)}
          required
          error={errors['vehicleHireType'] ?? null}
          testId="rfp-hire-type"
        />
        <MasterSelect
          resource="rfp-types"
          label="RFP type"
          value={typeId}
          onChange={chooseType}
          optionText={(item) => String(item['name'] ?? item.id)}
          required
          error={errors['typeId'] ?? errors['rfpType'] ?? null}
          testId="rfp-type"
        />
      </Box>
      {typeId !== '' && hireTypeId !== '' && !flags.isPending && (
        <Alert severity="info" aria-label="Required flags">
          {flagRow ? STEP2_TEXTS.flags(yes(flagRow['isRequiredByMll']), yes(flagRow['isRequiredByBa'])) : STEP2_TEXTS.noFlags}
        </Alert>
      )}
      {typeId === '' ? (
        <Typography color="text.secondary">{STEP2_TEXTS.chooseType}</Typography>
      ) : (
        <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: 2 }}>
          {OWNERS.map(({ owner, label, field }) => (
            <Box key={owner} component="fieldset" sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
              <Typography component="legend" variant="subtitle2">
                {label}
              </Typography>
              <FormGroup>
                {offered
                  .filter((p) => p.owner === owner)
                  .map((p) => (
                    <FormControlLabel
                      key={p.key}
                      label={p.label || p.key}
                      control={<Checkbox size="small" checked={chosen[field].includes(p.key)} onChange={(e) => toggle(field, p.key, e.target.checked)} />}
                    />
                  ))}
              </FormGroup>
              {errors[field] && <FormHelperText error>{errors[field]}</FormHelperText>}
            </Box>
          ))}
        </Box>
      )}
      <Box>
        <Button type="submit" variant="contained" disabled={save.isPending}>
          Save
        </Button>
      </Box>
    </Box>
  );
};
