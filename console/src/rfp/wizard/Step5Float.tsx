import { useState } from 'react';
import { Alert, Box, Button, FormControlLabel, List, ListItem, ListItemText, Switch, TextField, Typography } from '@mui/material';
import { useGetMany, useNotify } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { BaSelectionItem } from '../../../../domain/src/rfp/model';
import { errorText } from '../../providers/httpClient';
import { rfpViewPath } from '../paths';
import type { RfpStaffView } from '../types';
import { floatRfp, type FloatBody } from './api';
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
 * Step 5: the selected mix (step 4's BAs, grouped by city), the comments for the BAs and "float to all". Float →
 * POST /api/rfps/:code/float {baIds, comments, floatToAll}; then the RFP's view. A refusal ('Please Add New BA to
 * float RFP' when no BA would be new) is shown on the step as the API words it.
 */
export const Step5Float = ({ rfp }: { rfp: RfpStaffView }) => {
  const notify = useNotify();
  const navigate = useNavigate();
  const mix = selectedMix(rfp);
  const ids = mix.map((i) => i.baId as string);
  const bas = useGetMany<{ id: string; cityName: string | null }>('business-associates', { ids }, { enabled: ids.length > 0 });
  const cityOf = (baId: string) => (bas.data ?? []).find((b) => b?.id === baId)?.cityName ?? null;
  const invited = new Set(rfp.invitations.map((i) => i.baId));
  const [comments, setComments] = useState(rfp.steps[4]?.comment ?? '');
  const [floatToAll, setFloatToAll] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const float = useWizardSave(
    (body: FloatBody, key: string) => floatRfp(rfp.rfpCode, body, key).catch((error: unknown) => {
      setRefusal(errorText(error));
      throw error;
    }),
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
