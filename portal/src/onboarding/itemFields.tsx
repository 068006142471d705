import { useCallback, useEffect, useState, type ChangeEvent, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Grid from '@mui/material/Grid';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { z } from 'zod';
import { fieldErrors } from '../../../domain/src/validation/fields';
import { isApiError, messageOf } from '../api/client';
import type { ReviewStatus } from '../api/onboarding';
import { useFeedback } from '../shared/feedback';

/**
 * Small pieces every onboarding tab shares: text and select fields wired to a values/errors pair, the review
 * chip with its remarks, the shared-schema check, and the handling of a failed command (field errors back on
 * the fields, anything else in the error dialog).
 */

export type Errors = Partial<Record<string, string>>;

export const hasErrors = (errors: Errors): boolean => Object.values(errors).some(Boolean);

/** Parses with the domain's zod schema (the very rules the API runs); field errors keyed by field name. */
export function check<S extends z.ZodType>(
  schema: S,
  raw: unknown,
): { ok: true; data: z.output<S> } | { ok: false; errors: Errors } {
  const parsed = schema.safeParse(raw);
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, errors: fieldErrors(parsed.error) };
}

/** A form's values (all text while typed) and its messages; typing in a field clears its message. */
export function useFormValues<K extends string>(initial: Record<K, string>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Errors>({});
  const set = useCallback((field: K, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  }, []);
  return { values, setValues, errors, setErrors, set };
}

/**
 * What a tab does when a command fails: the server's `errors` go under the fields (and the message in the
 * snackbar), other failures open the error dialog; a 401 is the session's.
 */
export function useFailure() {
  const { showError, notify } = useFeedback();
  return useCallback(
    (e: unknown, setErrors?: (errors: Errors) => void) => {
      if (isApiError(e) && e.status === 401) return;
      if (setErrors && isApiError(e) && Object.keys(e.fieldErrors).length > 0) {
        setErrors(e.fieldErrors);
        notify(e.message, 'error');
        return;
      }
      showError(messageOf(e));
    },
    [showError, notify],
  );
}

/** Loads once (or when `key` changes); null until it answers. Failures other than 401 open the error dialog. */
export function useLoaded<T>(load: () => Promise<T>, key: string): [T | null, () => Promise<void>] {
  const [data, setData] = useState<T | null>(null);
  const failed = useFailure();
  const reload = useCallback(async () => {
    try {
      setData(await load());
    } catch (e) {
      failed(e);
    }
    // `load` is a fresh closure each render; `key` says when it means something else.
  }, [key, failed]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return [data, reload];
}

type FieldProps = {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  required?: boolean;
  hint?: string;
  disabled?: boolean;
  /** An id prefix, so two forms on one page (primary and additional account) keep their ids apart. */
  idPrefix?: string;
} & Omit<Partial<TextFieldProps>, 'onChange' | 'value' | 'error' | 'name'>;

export function TextInput({ name, label, value, onChange, error, required, hint, disabled, idPrefix = 'f', ...rest }: FieldProps) {
  return (
    <TextField
      {...rest}
      fullWidth
      id={`${idPrefix}-${name}`}
      name={name}
      label={label}
      required={required}
      value={value}
      disabled={disabled}
      onChange={(e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value)}
      error={Boolean(error)}
      // A blank helper line keeps the layout still when a message appears.
      helperText={error ?? hint ?? ' '}
    />
  );
}

export type Option = { value: string; label: string };

export function SelectInput({
  options,
  placeholder,
  ...props
}: FieldProps & { options: Option[]; placeholder: string }) {
  return (
    <TextInput
      {...props}
      select
      slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
    >
      <option value="">{placeholder}</option>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </TextInput>
  );
}

/** A multi-choice as labelled checkboxes (a fieldset): every option visible, each reachable by its name. */
export function CheckboxGroup({
  legend,
  name,
  options,
  selected,
  onChange,
  error,
  disabled,
  required,
}: {
  legend: string;
  name: string;
  options: { id: number; name: string }[];
  selected: number[];
  onChange: (ids: number[]) => void;
  error?: string | undefined;
  disabled?: boolean;
  required?: boolean;
}) {
  const toggle = (id: number) =>
    onChange(selected.includes(id) ? selected.filter((x) => x !== id) : [...selected, id].sort((a, b) => a - b));
  return (
    <FormControl component="fieldset" error={Boolean(error)} required={required} data-testid={`group-${name}`} fullWidth>
      <FormLabel component="legend" sx={{ fontWeight: 600, mb: 0.5 }}>
        {legend}
      </FormLabel>
      <Grid container spacing={0}>
        {options.map((o) => (
          <Grid key={o.id} size={{ xs: 12, sm: 6, md: 4 }}>
            <FormControlLabel
              control={
                <Checkbox
                  size="small"
                  name={name}
                  checked={selected.includes(o.id)}
                  onChange={() => toggle(o.id)}
                  disabled={disabled}
                />
              }
              label={o.name}
            />
          </Grid>
        ))}
      </Grid>
      <FormHelperText>{error ?? ' '}</FormHelperText>
    </FormControl>
  );
}

export const REVIEW_LABELS: Record<ReviewStatus, string> = {
  pending: 'Pending review',
  approved: 'Approved',
  rejected: 'Rejected',
};

const REVIEW_COLORS = { pending: 'default', approved: 'success', rejected: 'error' } as const;

/** The staff verdict on an item and, when rejected, why. */
export function ReviewStatusView({
  status,
  remarks,
  testId,
}: {
  status: ReviewStatus | null | undefined;
  remarks?: string | null | undefined;
  testId?: string;
}) {
  if (!status) return null;
  return (
    <Box data-testid={testId}>
      <Chip size="small" label={REVIEW_LABELS[status]} color={REVIEW_COLORS[status]} data-testid="review-status" />
      {status === 'rejected' && (
        <Typography variant="body2" color="error" sx={{ mt: 0.5, whiteSpace: 'pre-wrap' }} data-testid="review-remarks">
          {remarks ? `Reason: ${remarks}` : 'No remarks were given.'}
        </Typography>
      )}
    </Box>
  );
}

/** After a rejection an approved item stays as it is (the API refuses changes to it too). */
export const lockedText = 'This item was approved and cannot be changed';

export function TabIntro({ children }: { children: ReactNode }) {
  return (
    <Typography color="text.secondary" sx={{ mb: 2 }}>
      {children}
    </Typography>
  );
}

export function FormMessage({ message }: { message: string | undefined }) {
  return message ? <Alert severity="error">{message}</Alert> : null;
}

/** Text the API takes as null when blank (spec 000 §3: empty text fields are sent as null). */
export const orNull = (v: string): string | null => (v.trim() === '' ? null : v.trim());
