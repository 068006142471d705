import { useEffect, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  COMPANY_DETAIL_FIELDS,
  REQUIRED_FOR_SUBMIT,
  cityStateMismatch,
  companyDetailsSchema,
  missingForSubmit,
  parseCompanyDetails,
  type CompanyDetails,
} from '../../../domain/src/onboarding/details';
import { display } from '../../../domain/src/shared/format';
import { fieldErrors } from '../../../domain/src/validation/fields';
import type { CityOption, ServiceOption, StateOption } from '../api/client';

export type DetailField = (typeof COMPANY_DETAIL_FIELDS)[number];
export type FieldErrors = Partial<Record<string, string>>;
export type DetailsFormMode = 'registration' | 'edit' | 'view';

/**
 * What the page answers after calling the API: the server's field errors to show, or null (it went through,
 * or the page has reported the failure itself).
 */
export type ActionResult = FieldErrors | null;

export type CompanyDetailsFormProps = {
  initial: CompanyDetails | null;
  mode: DetailsFormMode;
  states: StateOption[];
  services: ServiceOption[];
  loadCities: (stateId: number) => Promise<CityOption[]>;
  /** Saves a draft. */
  onSave: (details: CompanyDetails) => Promise<ActionResult>;
  /**
   * Saves, then submits for verification. Only called when every REQUIRED_FOR_SUBMIT field is filled. Absent on
   * the tabbed onboarding page, whose own Submit covers every tab.
   */
  onSubmit?: (details: CompanyDetails) => Promise<ActionResult>;
  /** The save button's label ("Save" for a draft). */
  saveLabel?: string;
  /** The line beside the buttons (the draft hint by default). */
  footnote?: string;
  /** Field errors found elsewhere (a refused submission of the whole application) to show on the fields. */
  externalErrors?: FieldErrors | null;
};

type Values = Record<DetailField, string>;

const LABELS: Record<DetailField, string> = {
  companyName: 'Company Name',
  panNumber: 'PAN Number',
  contactPersonName: 'Contact Person Name',
  cinNumber: 'CIN Number',
  serviceId: 'Service',
  stateId: 'State',
  cityId: 'City',
  addressLine1: 'Address Line 1',
  addressLine2: 'Address Line 2',
  pinCode: 'Pincode',
  companyLandline: 'Company Landline',
  contactPersonMobileNumber: 'Contact Person Mobile Number',
  ownFleet: 'Own Fleet (vehicles)',
  attachedFleet: 'Attached Fleet (vehicles)',
};

const REQUIRED = new Set<DetailField>(REQUIRED_FOR_SUBMIT);
const UPPER_CASE = new Set<DetailField>(['panNumber', 'cinNumber']);

const toValues = (details: CompanyDetails | null): Values =>
  Object.fromEntries(
    COMPANY_DETAIL_FIELDS.map((f) => {
      const v = details?.[f];
      return [f, v === null || v === undefined ? '' : String(v)];
    }),
  ) as Values;

/** What the schema parses: trimmed text; the schema itself turns '' into null and upper-cases PAN and CIN. */
const toRaw = (values: Values): Record<DetailField, string> =>
  Object.fromEntries(COMPANY_DETAIL_FIELDS.map((f) => [f, values[f].trim()])) as Record<DetailField, string>;

/**
 * The domain's schema, the very one the API runs (design.md §7); the city must lie in the state, as the
 * loaded cities say (the API checks the masters again).
 */
function validate(values: Values, cities: readonly CityOption[]): { details: CompanyDetails | null; errors: FieldErrors } {
  const parsed = parseCompanyDetails(toRaw(values));
  if (!parsed.ok) return { details: null, errors: fieldErrors(parsed.error) };
  const city = cities.find((c) => c.id === parsed.details.cityId);
  return { details: parsed.details, errors: cityStateMismatch(parsed.details, city) };
}

function validateField(field: DetailField, value: string): string | undefined {
  const result = companyDetailsSchema.shape[field].safeParse(value.trim());
  return result.success ? undefined : result.error.issues[0]?.message;
}

/** Blank fields as null, the rest as typed: enough to list the gaps while other fields are invalid. */
const emptyRequired = (values: Values): CompanyDetails =>
  Object.fromEntries(
    COMPANY_DETAIL_FIELDS.map((f) => [f, values[f].trim() === '' ? null : values[f]]),
  ) as unknown as CompanyDetails;

const hasErrors = (errors: FieldErrors) => Object.values(errors).some(Boolean);

export function CompanyDetailsForm(props: CompanyDetailsFormProps) {
  const { initial, mode, states, services, loadCities, onSave, onSubmit, externalErrors, saveLabel = 'Save', footnote } = props;
  const [values, setValues] = useState<Values>(() => toValues(initial));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [cities, setCities] = useState<CityOption[]>([]);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const readOnly = mode === 'view';

  useEffect(() => {
    if (externalErrors) setErrors(externalErrors);
  }, [externalErrors]);

  const stateId = values.stateId === '' ? null : Number(values.stateId);
  useEffect(() => {
    let live = true;
    if (stateId === null) return;
    loadCities(stateId)
      .then((rows) => live && setCities(rows))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [stateId, loadCities]);

  const set = (field: DetailField) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const raw = event.target.value;
    const value = UPPER_CASE.has(field) ? raw.toUpperCase() : raw;
    setValues((v) => ({ ...v, [field]: value, ...(field === 'stateId' ? { cityId: '' } : {}) }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const check = (field: DetailField) => () =>
    setErrors((e) => ({ ...e, [field]: validateField(field, values[field]) }));

  // Until the chosen state's cities arrive, the previous state's are not offered.
  const stateCities = cities.filter((c) => c.stateId === stateId);

  const showErrors = (found: FieldErrors) => {
    setErrors(found);
    // Take the user to the first problem, in form order.
    const first = COMPANY_DETAIL_FIELDS.find((f) => found[f]);
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };

  const run = async (action: 'save' | 'submit') => {
    if (busy) return;
    const { details, errors: found } = validate(values, cities);
    // Submitting also needs every mandatory field: report the gaps together with any format errors.
    const missing = action === 'submit' ? missingForSubmit(details ?? emptyRequired(values)) : {};
    const all = { ...missing, ...found };
    if (!details || hasErrors(all)) return showErrors(all);
    setBusy(true);
    try {
      const serverErrors = await (action === 'save' || !onSubmit ? onSave(details) : onSubmit(details));
      if (serverErrors && hasErrors(serverErrors)) showErrors(serverErrors);
      else setValues(toValues(details));
    } finally {
      setBusy(false);
    }
  };

  const onFormSubmit = (event: FormEvent) => {
    // Enter in a field saves a draft; submitting for verification is always an explicit click.
    event.preventDefault();
    void run('save');
  };

  if (readOnly)
    return <DetailsSummary values={values} states={states} cities={stateCities} services={services} />;

  const text = (field: DetailField, extra: Partial<TextFieldProps> = {}) => {
    const { helperText, disabled, ...rest } = extra;
    return (
      <TextField
        {...rest}
        name={field}
        id={`ba-${field}`}
        label={LABELS[field]}
        required={REQUIRED.has(field)}
        value={values[field]}
        onChange={set(field)}
        onBlur={check(field)}
        error={Boolean(errors[field])}
        // A blank helper line reserves the space an error takes, so a message appearing on blur does not
        // move the buttons under the pointer mid-click.
        helperText={errors[field] ?? helperText ?? ' '}
        disabled={disabled ?? busy}
      />
    );
  };

  const select = (
    field: DetailField,
    options: { id: number; name: string }[],
    placeholder: string,
    hint?: string,
  ) =>
    text(field, {
      select: true,
      helperText: hint,
      disabled: busy || (field === 'cityId' && stateId === null),
      slotProps: { select: { native: true }, inputLabel: { shrink: true } },
      children: [
        <option key="" value="">
          {placeholder}
        </option>,
        ...options.map((o) => (
          <option key={o.id} value={String(o.id)}>
            {o.name}
          </option>
        )),
      ],
    });

  return (
    <Box component="form" ref={formRef} noValidate onSubmit={onFormSubmit} aria-label="Company details">
      <Stack spacing={2}>
        <Section title="Company">
          <Field>{text('companyName', { autoComplete: 'organization' })}</Field>
          <Field>{select('serviceId', services, 'Select service')}</Field>
          <Field>
            {text('panNumber', {
              slotProps: { htmlInput: { maxLength: 10, autoCapitalize: 'characters', spellCheck: false } },
              helperText: 'e.g. ABCDE1234F',
            })}
          </Field>
          <Field>
            {text('cinNumber', {
              slotProps: { htmlInput: { maxLength: 21, autoCapitalize: 'characters', spellCheck: false } },
            })}
          </Field>
        </Section>
        <Section title="Contact">
          <Field>{text('contactPersonName', { autoComplete: 'name' })}</Field>
          <Field>
            {text('contactPersonMobileNumber', {
              type: 'tel',
              autoComplete: 'tel-national',
              slotProps: { htmlInput: { maxLength: 10, inputMode: 'numeric' } },
              helperText: '10 digits, without +91',
            })}
          </Field>
          <Field>
            {text('companyLandline', { type: 'tel', helperText: 'With STD code, e.g. 022 12345678' })}
          </Field>
        </Section>
        <Section title="Address">
          <Field>{text('addressLine1', { autoComplete: 'address-line1' })}</Field>
          <Field>{text('addressLine2', { autoComplete: 'address-line2' })}</Field>
          <Field>{select('stateId', states, 'Select state')}</Field>
          <Field>
            {select(
              'cityId',
              stateCities,
              'Select city',
              stateId === null ? 'Select a state first' : undefined,
            )}
          </Field>
          <Field>
            {text('pinCode', {
              autoComplete: 'postal-code',
              slotProps: { htmlInput: { maxLength: 6, inputMode: 'numeric' } },
            })}
          </Field>
        </Section>
        <Section title="Fleet">
          <Field>{text('ownFleet', { slotProps: { htmlInput: { inputMode: 'numeric' } } })}</Field>
          <Field>{text('attachedFleet', { slotProps: { htmlInput: { inputMode: 'numeric' } } })}</Field>
        </Section>
        <Stack
          direction={{ xs: 'column-reverse', sm: 'row' }}
          spacing={2}
          sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}
        >
          <Typography variant="body2" color="text.secondary">
            {footnote ?? 'Fields marked * are needed to submit for verification. You can save a draft at any time.'}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ flexShrink: 0 }}>
            <Button type="submit" variant={onSubmit ? 'outlined' : 'contained'} disabled={busy} data-testid="save-companyDetails">
              {saveLabel}
            </Button>
            {onSubmit && (
              <Button variant="contained" disabled={busy} onClick={() => void run('submit')}>
                Submit for verification
              </Button>
            )}
          </Stack>
        </Stack>
      </Stack>
    </Box>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card component="section" aria-label={title}>
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 2 }}>
          {title}
        </Typography>
        <Grid container spacing={2}>
          {children}
        </Grid>
      </CardContent>
    </Card>
  );
}

function Field({ children }: { children: ReactNode }) {
  return <Grid size={{ xs: 12, sm: 6 }}>{children}</Grid>;
}

/** Read-only view (mode "view", or whenever the status does not allow editing). "NA" marks an empty value. */
function DetailsSummary({
  values,
  states,
  cities,
  services,
}: {
  values: Values;
  states: StateOption[];
  cities: CityOption[];
  services: ServiceOption[];
}) {
  const nameOf = (list: { id: number; name: string }[], id: string) =>
    id === '' ? '' : (list.find((o) => String(o.id) === id)?.name ?? id);
  const shown: Record<DetailField, string> = {
    ...values,
    serviceId: nameOf(services, values.serviceId),
    stateId: nameOf(states, values.stateId),
    cityId: nameOf(cities, values.cityId),
  };
  return (
    <Card>
      <CardContent>
        <Grid container spacing={2} component="dl" sx={{ m: 0 }}>
          {COMPANY_DETAIL_FIELDS.map((f) => (
            <Grid key={f} size={{ xs: 12, sm: 6, md: 4 }}>
              <Typography component="dt" variant="caption" color="text.secondary">
                {LABELS[f]}
              </Typography>
              <Typography component="dd" sx={{ m: 0, wordBreak: 'break-word' }} data-testid={`view-${f}`}>
                {display(shown[f])}
              </Typography>
            </Grid>
          ))}
        </Grid>
      </CardContent>
    </Card>
  );
}
