import { useState } from 'react';
import {
  Autocomplete,
  Box,
  Button,
  FormControlLabel,
  Radio,
  RadioGroup,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useGetList } from 'react-admin';
import type { BaSearchType, BaSelectionItem } from '../../../../domain/src/rfp/model';
import { parseWith, rfpStep4Schema } from '../../../../domain/src/rfp/rules';
import { MISSING } from '../../../../domain/src/shared/format';
import { MasterSelect } from '../../vendor-code/MasterSelect';
import type { RfpCommandAnswer, RfpStaffView } from '../types';
import { fetchSuggestedBas, saveRfpStep, type SuggestedBa } from './api';
import { useWizardSave } from './useWizardSave';

type BaRow = { id: string; companyName: string | null; cityName: string | null };
type Named = { id: number | string; name?: unknown };
/** What the BA list is asked (GET /api/business-associates): only verified BAs, by name, city or vertical. */
type Criterion = { type: BaSearchType; filter: Record<string, unknown>; value: string } | null;

export const STEP4_TEXTS = {
  searchBy: 'Search BAs by',
  noResults: 'No verified BA matches',
  nothingSelected: 'No BA selected yet',
  alreadySelected: 'Already selected',
  suggested: 'Suggested BAs',
  noSuggestions: 'No BA to suggest: none was awarded on this customer’s earlier RFPs or is based in a lane city',
  awardedOn: (codes: string[]) => `Awarded on ${codes.join(', ')}`,
  laneCity: 'Based in a lane city',
  invited: 'Invited',
} as const;

/** A suggested BA as the selection keeps it: one named BA, marked as the portal's suggestion. */
const suggestedItem = (ba: SuggestedBa): BaSelectionItem => ({
  baId: ba.baId,
  baName: ba.baName,
  individual: 1,
  action: 'add',
  typeOfSearch: 'name',
  typeValue: ba.baName,
  serviceType: null,
  isSuggestedBa: true,
});

/** Why the portal suggests `ba`, in words. */
const whySuggested = (ba: SuggestedBa): string =>
  [ba.awardedOn.length > 0 ? STEP4_TEXTS.awardedOn(ba.awardedOn) : null, ba.servesLaneCity ? STEP4_TEXTS.laneCity : null].filter(Boolean).join('; ');

const SEARCH_LABELS: Record<BaSearchType, string> = { name: 'Name', city: 'City', serviceType: 'Service type' };

/** A named BA as the selection keeps it (spec 001 §3 "BA selection item"); `individual` 1: one named BA. */
const itemFor = (ba: BaRow, criterion: NonNullable<Criterion>): BaSelectionItem => ({
  baId: ba.id,
  baName: ba.companyName ?? ba.id,
  individual: 1,
  action: 'add',
  typeOfSearch: criterion.type,
  typeValue: criterion.value,
  serviceType: criterion.type === 'serviceType' ? criterion.value : null,
  isSuggestedBa: false,
});

/** Cities from the Cities master, asked as the user types (hundreds of them). */
const CityPicker = ({ onPick }: { onPick: (city: Named | null) => void }) => {
  const [typed, setTyped] = useState('');
  const { data } = useGetList<Named>('cities', { pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' }, filter: typed ? { q: typed } : {} });
  return (
    <Autocomplete
      options={data ?? []}
      getOptionLabel={(c) => String(c.name ?? c.id)}
      isOptionEqualToValue={(a, b) => String(a.id) === String(b.id)}
      onInputChange={(_e, value) => setTyped(value)}
      onChange={(_e, city) => onPick(city)}
      renderInput={(params) => <TextField {...params} label="City" size="small" />}
      sx={{ minWidth: 260 }}
    />
  );
};

/**
 * Step 4: BA selection. Verified BAs are searched by name, city or service type (the BA list's `q`, `cityId` and
 * `verticalId` filters), added to or removed from the selection (a city search's picks are kept as
 * `cityBasedBa`, the others as `baList`), with a comment for the BAs and the isSubmitToNewBa and
 * isTnCDownloadable switches. Save → PUT steps/4.
 */
export const Step4BaSelection = ({ rfp, onSaved }: { rfp: RfpStaffView; onSaved: (answer: RfpCommandAnswer) => void }) => {
  const saved = rfp.steps[4];
  const [searchType, setSearchType] = useState<BaSearchType>('name');
  const [name, setName] = useState('');
  const [criterion, setCriterion] = useState<Criterion>(null);
  const [baList, setBaList] = useState<BaSelectionItem[]>(saved?.baList ?? []);
  const [cityBasedBa, setCityBasedBa] = useState<BaSelectionItem[]>(saved?.cityBasedBa ?? []);
  const [comment, setComment] = useState(saved?.comment ?? '');
  const [isSubmitToNewBa, setSubmitToNewBa] = useState(saved?.isSubmitToNewBa ?? false);
  const [isTnCDownloadable, setTnCDownloadable] = useState(saved?.isTnCDownloadable ?? false);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const results = useGetList<BaRow>(
    'business-associates',
    { pagination: { page: 1, perPage: 25 }, sort: { field: 'companyName', order: 'ASC' }, filter: { status: 'verified', ...criterion?.filter } },
    { enabled: criterion !== null },
  );
  const suggestions = useQuery({ queryKey: ['rfps', rfp.rfpCode, 'suggested-bas'], queryFn: () => fetchSuggestedBas(rfp.rfpCode), retry: false });
  const selected = [...baList, ...cityBasedBa];
  const isSelected = (id: string) => selected.some((i) => i.baId === id);
  const save = useWizardSave((body: unknown, key: string) => saveRfpStep(rfp.rfpCode, 4, body, key), (answer) => onSaved(answer));

  const add = (ba: BaRow) => {
    if (!criterion || isSelected(ba.id)) return;
    const item = itemFor(ba, criterion);
    if (criterion.type === 'city') setCityBasedBa((prev) => [...prev, item]);
    else setBaList((prev) => [...prev, item]);
  };
  const addSuggested = (ba: SuggestedBa) => {
    if (!isSelected(ba.baId)) setBaList((prev) => [...prev, suggestedItem(ba)]);
  };
  const remove = (baId: string | null) => {
    setBaList((prev) => prev.filter((i) => i.baId !== baId));
    setCityBasedBa((prev) => prev.filter((i) => i.baId !== baId));
  };
  const changeSearchType = (next: BaSearchType) => {
    setSearchType(next);
    setCriterion(null);
  };
  const submit = () => {
    const parsed = parseWith(rfpStep4Schema, { baList, cityBasedBa, comment, isSubmitToNewBa, isTnCDownloadable });
    if ('errors' in parsed) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    save.run(parsed.data);
  };

  return (
    <Box sx={{ display: 'grid', gap: 2 }} component="form" noValidate aria-label="BA selection" onSubmit={(e) => { e.preventDefault(); submit(); }}>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="body2" id="rfp-ba-search-by">
          {STEP4_TEXTS.searchBy}
        </Typography>
        <RadioGroup row aria-labelledby="rfp-ba-search-by" value={searchType} onChange={(e) => changeSearchType(e.target.value as BaSearchType)}>
          {(Object.keys(SEARCH_LABELS) as BaSearchType[]).map((t) => (
            <FormControlLabel key={t} value={t} control={<Radio size="small" />} label={SEARCH_LABELS[t]} />
          ))}
        </RadioGroup>
      </Box>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        {searchType === 'name' && (
          <>
            <TextField label="BA name" size="small" value={name} onChange={(e) => setName(e.target.value)} />
            <Button variant="outlined" disabled={name.trim() === ''} onClick={() => setCriterion({ type: 'name', filter: { q: name.trim() }, value: name.trim() })}>
              Search BAs
            </Button>
          </>
        )}
        {searchType === 'city' && (
          <CityPicker onPick={(city) => setCriterion(city ? { type: 'city', filter: { cityId: city.id }, value: String(city.name ?? city.id) } : null)} />
        )}
        {searchType === 'serviceType' && (
          <Box sx={{ minWidth: 260 }}>
            <ServiceTypePicker onPick={(id, label) => setCriterion(id ? { type: 'serviceType', filter: { verticalId: id }, value: label } : null)} />
          </Box>
        )}
      </Box>
      {criterion && (
        <Table size="small" aria-label="Matching BAs">
          <TableHead>
            <TableRow>
              <TableCell>BA</TableCell>
              <TableCell>City</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {(results.data ?? []).map((ba) => (
              <TableRow key={ba.id}>
                <TableCell>{ba.companyName ?? ba.id}</TableCell>
                <TableCell>{ba.cityName ?? MISSING}</TableCell>
                <TableCell align="right">
                  <Button size="small" disabled={isSelected(ba.id)} onClick={() => add(ba)} aria-label={`Add ${ba.companyName ?? ba.id}`}>
                    {isSelected(ba.id) ? STEP4_TEXTS.alreadySelected : 'Add'}
                  </Button>
                </TableCell>
              </TableRow>
            ))}
            {!results.isPending && (results.data ?? []).length === 0 && (
              <TableRow>
                <TableCell colSpan={3}>{STEP4_TEXTS.noResults}</TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      )}
      <Typography variant="subtitle2" component="h2">
        {STEP4_TEXTS.suggested}
      </Typography>
      <Table size="small" aria-label={STEP4_TEXTS.suggested}>
        <TableBody>
          {(suggestions.data ?? []).map((ba) => (
            <TableRow key={ba.baId}>
              <TableCell>{ba.baName}</TableCell>
              <TableCell>{ba.emailId ?? MISSING}</TableCell>
              <TableCell>{ba.cityName ?? MISSING}</TableCell>
              <TableCell>
                {whySuggested(ba)}
                {ba.invited && ` (${STEP4_TEXTS.invited})`}
              </TableCell>
              <TableCell align="right">
                <Button size="small" disabled={isSelected(ba.baId)} onClick={() => addSuggested(ba)} aria-label={`Add suggested ${ba.baName}`}>
                  {isSelected(ba.baId) ? STEP4_TEXTS.alreadySelected : 'Add'}
                </Button>
              </TableCell>
            </TableRow>
          ))}
          {suggestions.isSuccess && suggestions.data.length === 0 && (
            <TableRow>
              <TableCell>{STEP4_TEXTS.noSuggestions}</TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
      <Typography variant="subtitle2" component="h2">
        Selected BAs ({selected.length})
      </Typography>
      <Table size="small" aria-label="Selected BAs">
        <TableBody>
          {selected.map((item) => (
            <TableRow key={item.baId ?? `${item.typeOfSearch}:${item.typeValue}`}>
              <TableCell>{item.baName}</TableCell>
              <TableCell>
                {SEARCH_LABELS[item.typeOfSearch]}: {item.typeValue}
              </TableCell>
              <TableCell align="right">
                <Button size="small" color="error" onClick={() => remove(item.baId)} aria-label={`Remove ${item.baName}`}>
                  Remove
                </Button>
              </TableCell>
            </TableRow>
          ))}
          {selected.length === 0 && (
            <TableRow>
              <TableCell>{STEP4_TEXTS.nothingSelected}</TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
      <TextField
        label="Comment"
        multiline
        minRows={2}
        value={comment}
        onChange={(e) => setComment(e.target.value)}
        error={Boolean(errors['comment'])}
        helperText={errors['comment'] ?? ' '}
      />
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <FormControlLabel control={<Switch checked={isSubmitToNewBa} onChange={(e) => setSubmitToNewBa(e.target.checked)} />} label="Submit to new BA" />
        <FormControlLabel control={<Switch checked={isTnCDownloadable} onChange={(e) => setTnCDownloadable(e.target.checked)} />} label="T&C downloadable" />
      </Box>
      <Box>
        <Button type="submit" variant="contained" disabled={save.isPending}>
          Save
        </Button>
      </Box>
    </Box>
  );
};

/** Service types are the verticals master (the BA list filters BAs by their vertical mapping). */
const ServiceTypePicker = ({ onPick }: { onPick: (id: string, label: string) => void }) => {
  const [value, setValue] = useState('');
  const { data } = useGetList<Named>('verticals', { pagination: { page: 1, perPage: 100 }, sort: { field: 'id', order: 'ASC' }, filter: { status: 'active' } });
  return (
    <MasterSelect
      resource="verticals"
      label="Service type"
      value={value}
      onChange={(id) => {
        setValue(id);
        onPick(id, String((data ?? []).find((v) => String(v.id) === id)?.name ?? id));
      }}
      optionText={(item) => String(item['name'] ?? item.id)}
    />
  );
};
