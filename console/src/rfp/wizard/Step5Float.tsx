import { useState } from 'react';
import { Alert, Box, Button, FormControlLabel, List, ListItem, ListItemText, Switch, TextField, Typography } from '@mui/material';
import { useGetMany, useNotify } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { BaSelectionItem, RfpStep5 } from '../../../../domain/src/rfp/model';
import { errorText } from '../../providers/httpClient';
import { rfpViewPath } from '../paths';
import type { RfpCommandAnswer, RfpStaffView } from '../types';
import { floatRfp, saveRfpStep, type FloatBody } from './api';
import { useWizardSave } from './useWizardSave';

export const STEP5_TEXTS = {
  noCity: 'City not given',
  nothingSelected: 'No BA was selected in step 4',
  alreadyInvited: 'already invited',
} as const;

/** The BAs step 4 chose, each once (a BA found by name and by city is one BA). */
export function selectedMix(rfp: RfpStaffView): BaSelectionItem[] {
  const step4 = rfp.steps[4];
  const items = [...(step4?.baList ?? []), ...(step4?.cityBasedBa ?? [])].filter((i) => i.action === 'add' && i.baId !== null);
  return items.filter((item, index) => items.findIndex((other) => other.baId === item.baId) === index);
}

/** `items` grouped by the city of each BA (the BA list's city), cities in name order. */
export function groupByCity(items: BaSelectionItem[], cityOf: (baId: string) => string | null): [string, BaSelectionItem[]][] {
  const groups = new Map<string, BaSelectionItem[]>();
  for (const item of items) {
    const city = cityOf(item.baId ?? '') ?? STEP5_TEXTS.noCity;
    groups.set(city, [...(groups.get(city) ?? []), item]);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/**
 * Step 5's own data (spec 001 §3 wizard state: selected mix, city-wise selected BAs, entire BA list): the mix,
 * each BA again as one of its city's group (individual 0, typeOfSearch city), and "float to all".
 */
export function step5Data(mix: BaSelectionItem[], cityOf: (baId: string) => string | null, floatToAll: boolean): RfpStep5 {
  const cityWiseSelectedBa = groupByCity(mix, cityOf).flatMap(([city, items]) =>
    items.map((item): BaSelectionItem => ({ ...item, individual: 0, typeOfSearch: 'city', typeValue: city })),
  );
  return { selectedMix: mix, cityWiseSelectedBa, entireBaList: floatToAll };
}

/**
 * Step 5: the selected mix (step 4's BAs, grouped by city), the comments for the BAs and "float to all". Float →
 * PUT steps/5 (the step's own data, so a draft opened again shows it) then POST /api/rfps/:code/float {baIds,
 * comments, floatToAll}; then the RFP's view. A refusal ('Please Add New BA to float RFP' when no BA would be new)
 * is shown on the step as the API words it. `restore`: whether the saved step 5 is put back (spec 001 §4: the
 * wizard opened at step 2 or 1 clears step 5; the wizard decides, RfpWizard.tsx).
 */
export const Step5Float = ({ rfp, restore, onSaved }: { rfp: RfpStaffView; restore: boolean; onSaved: (answer: RfpCommandAnswer) => void }) => {
  const notify = useNotify();
  const navigate = useNavigate();
  const mix = selectedMix(rfp);
  const ids = mix.map((i) => i.baId as string);
  const bas = useGetMany<{ id: string; cityName: string | null }>('business-associates', { ids }, { enabled: ids.length > 0 });
  const cityOf = (baId: string) => (bas.data ?? []).find((b) => b?.id === baId)?.cityName ?? null;
  const invited = new Set(rfp.invitations.map((i) => i.baId));
  const [comments, setComments] = useState(rfp.steps[4]?.comment ?? '');
  const [floatToAll, setFloatToAll] = useState(restore ? (rfp.steps[5]?.entireBaList ?? false) : false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const float = useWizardSave(
    async (body: FloatBody, key: string) => {
      // The step is saved first (its own key: a retry of the float saves it again harmlessly).
      onSaved(await saveRfpStep(rfp.rfpCode, 5, step5Data(mix, cityOf, body.floatToAll), `${key}:step5`));
      return floatRfp(rfp.rfpCode, body, key).catch((error: unknown) => {
        setRefusal(errorText(error));
        throw error;
      });
    },
    (answer) => {
      setRefusal(null);
      notify(answer.message, { type: 'success' });
      navigate(rfpViewPath(rfp.rfpCode, rfp.rfpType));
    },
  );

  return (
    <Box sx={{ display: 'grid', gap: 2 }} role="group" aria-label="Float">
      <Typography variant="subtitle2" component="h2">
        Selected mix ({mix.length})
      </Typography>
      {mix.length === 0 && <Typography color="text.secondary">{STEP5_TEXTS.nothingSelected}</Typography>}
      {groupByCity(mix, cityOf).map(([city, items]) => (
        <Box key={city} role="group" aria-label={city}>
          <Typography variant="body2" sx={{ fontWeight: 'bold' }}>
            {city} ({items.length})
          </Typography>
          <List dense disablePadding>
            {items.map((item) => (
              <ListItem key={item.baId ?? item.baName}>
                <ListItemText primary={item.baName} secondary={invited.has(item.baId ?? '') ? STEP5_TEXTS.alreadyInvited : null} />
              </ListItem>
            ))}
          </List>
        </Box>
      ))}
      <TextField label="Comments for the BAs" multiline minRows={2} value={comments} onChange={(e) => setComments(e.target.value)} />
      <FormControlLabel control={<Switch checked={floatToAll} onChange={(e) => setFloatToAll(e.target.checked)} />} label="Float to all verified BAs" />
      {refusal && <Alert severity="error">{refusal}</Alert>}
      <Box>
        <Button variant="contained" disabled={float.isPending} onClick={() => float.run({ baIds: ids, comments, floatToAll })}>
          Float
        </Button>
      </Box>
    </Box>
  );
};
