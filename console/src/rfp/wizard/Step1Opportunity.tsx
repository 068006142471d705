import { useState } from 'react';
import { Alert, Box, Button, TextField, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { useMutation } from '@tanstack/react-query';
import type { Opportunity } from '../../../../domain/src/crm/port';
import { parseRfpHeader } from '../../../../domain/src/rfp/rules';
import { errorText } from '../../providers/httpClient';
import type { RfpCommandAnswer, RfpStaffView } from '../types';
import { createRfp, lookupOpportunity, saveRfpStep } from './api';
import { useWizardSave } from './useWizardSave';

type HeaderKey = Exclude<keyof Opportunity, 'casshOppId'>;
type FieldDef = { key: HeaderKey; label: string; type?: 'date' };

/** Spec 001 §2 step 1: the CRM's fields, shown read-only (the server takes them from the CRM whatever is sent). */
export const CRM_FIELDS: FieldDef[] = [
  { key: 'customerName', label: 'Customer name' },
  { key: 'casshAccId', label: 'Customer account ID' },
  { key: 'rfpValue', label: 'RFP value' },
  { key: 'receiveDate', label: 'Receive date', type: 'date' },
  { key: 'dueDate', label: 'Due date', type: 'date' },
  { key: 'customerReceiveDate', label: 'Customer receive date', type: 'date' },
  { key: 'customerDueDate', label: 'Customer due date', type: 'date' },
  { key: 'sourceSystem', label: 'Source system' },
];

/** The fields staff may change after the CRM filled them (api/src/rfp/routes.ts STAFF_EDITABLE_HEADER). */
export const STAFF_FIELDS: FieldDef[] = [
  { key: 'oppDescription', label: 'Opportunity description' },
  { key: 'productDescription', label: 'Product description' },
  { key: 'totalLogisticsSpent', label: 'Total logistics spent' },
  { key: 'contactPerson', label: 'Contact person' },
  { key: 'contactDetails', label: 'Contact details' },
  { key: 'customerAddress', label: 'Customer address' },
  { key: 'verticalName', label: 'Vertical' },
  { key: 'sourceState', label: 'Source state' },
  { key: 'destinationState', label: 'Destination state' },
  { key: 'serviceType', label: 'Service type' },
  { key: 'subServiceType', label: 'Sub-service type' },
];

export const STEP1_TEXTS = {
  searchFirst: 'Search the opportunity by its ID first',
  enterOppId: 'Please enter an opportunity id',
} as const;

type Form = Record<HeaderKey, string>;
const formOf = (source: Partial<Record<HeaderKey, string | null>> | null): Form =>
  Object.fromEntries([...CRM_FIELDS, ...STAFF_FIELDS].map((f) => [f.key, source?.[f.key] ?? ''])) as Form;

/**
 * Step 1: the opportunity looked up by its ID in the CRM (GET /api/opportunities/:id; a failed lookup shows the
 * server's message as it is), the RFP code, and the header. Save creates the draft (POST /api/rfps) or saves
 * step 1 of the RFP (PUT steps/1). The RFP code is fixed once the draft exists.
 */
export const Step1Opportunity = ({ rfp, onSaved }: { rfp: RfpStaffView | null; onSaved: (answer: RfpCommandAnswer, rfpCode: string) => void }) => {
  const [oppId, setOppId] = useState(rfp?.header?.casshOppId ?? rfp?.casshOppId ?? '');
  const [rfpCode, setRfpCode] = useState(rfp?.rfpCode ?? '');
  const [form, setForm] = useState<Form>(() => formOf(rfp?.header ?? null));
  const [found, setFound] = useState<boolean>(rfp !== null);
  const [lookupError, setLookupError] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const lookup = useMutation({
    mutationFn: (id: string) => lookupOpportunity(id),
    onSuccess: (opportunity) => {
      setLookupError(null);
      setForm(formOf(opportunity));
      setOppId(opportunity.casshOppId);
      setFound(true);
      setErrors({});
    },
    onError: (error: unknown) => {
      setLookupError(errorText(error));
      // A new RFP shows nothing of an earlier lookup next to the failed one; a draft keeps its saved opportunity.
      if (rfp === null) {
        setFound(false);
        setForm(formOf(null));
      }
    },
  });

  const save = useWizardSave(
    (body: Record<string, unknown>, key: string) => (rfp ? saveRfpStep(rfp.rfpCode, 1, body, key) : createRfp(body, key)),
    (answer, body) => onSaved(answer, String(body['rfpCode'])),
  );

  const submit = () => {
    const parsed = parseRfpHeader({ ...form, casshOppId: oppId, rfpCode });
    if ('errors' in parsed) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    const edits = Object.fromEntries(STAFF_FIELDS.map((f) => [f.key, form[f.key]]));
    save.run({ rfpCode: parsed.data.rfpCode, casshOppId: parsed.data.casshOppId, sourceSystem: parsed.data.sourceSystem, ...edits });
  };

  const field = (f: FieldDef, readOnly: boolean) => (
    <TextField
      key={f.key}
      label={f.label}
      value={form[f.key]}
      onChange={(e) => setForm((prev) => ({ ...prev, [f.key]: e.target.value }))}
      error={Boolean(errors[f.key])}
      helperText={errors[f.key] ?? ' '}
      size="small"
      slotProps={{ input: { readOnly }, inputLabel: { shrink: true } }}
      disabled={!found}
    />
  );

  return (
    <Box sx={{ display: 'grid', gap: 2 }} component="form" noValidate onSubmit={(e) => { e.preventDefault(); submit(); }} aria-label="Opportunity">
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <TextField
          label="Opportunity ID"
          value={oppId}
          onChange={(e) => setOppId(e.target.value)}
          size="small"
          error={Boolean(errors['casshOppId'])}
          helperText={errors['casshOppId'] ?? ' '}
          slotProps={{ input: { readOnly: rfp !== null && rfp.status !== 'draft' } }}
        />
        <Button
          variant="outlined"
          startIcon={<SearchIcon />}
          disabled={lookup.isPending}
          onClick={() => (oppId.trim() ? lookup.mutate(oppId) : setLookupError(STEP1_TEXTS.enterOppId))}
        >
          Search
        </Button>
        <TextField
          label="RFP code"
          value={rfpCode}
          onChange={(e) => setRfpCode(e.target.value)}
          size="small"
          required
          error={Boolean(errors['rfpCode'])}
          helperText={errors['rfpCode'] ?? (rfp ? 'The RFP code cannot be changed' : ' ')}
          slotProps={{ input: { readOnly: rfp !== null } }}
        />
      </Box>
      {lookupError && (
        <Alert severity="error" role="alert">
          {lookupError}
        </Alert>
      )}
      {!found && !lookupError && <Typography color="text.secondary">{STEP1_TEXTS.searchFirst}</Typography>}
      <Typography variant="subtitle2" component="h2">
        From the CRM
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: 1 }}>{CRM_FIELDS.map((f) => field(f, true))}</Box>
      <Typography variant="subtitle2" component="h2">
        Opportunity details
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: 1 }}>{STAFF_FIELDS.map((f) => field(f, false))}</Box>
      <Box>
        <Button type="submit" variant="contained" disabled={!found || save.isPending}>
          Save
        </Button>
      </Box>
    </Box>
  );
};
