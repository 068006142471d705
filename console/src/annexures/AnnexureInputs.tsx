import { useId } from 'react';
import { Box, Button, FormHelperText, LinearProgress, Stack, Typography } from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { InputHelperText, TextInput, useInput } from 'react-admin';
import { messages, safeText } from '../../../domain/src/validation/fields';
import { acceptOf } from '../../../domain/src/validation/files';
import { FileTypeIcon, fileKindOf, formatFileSize } from '../../../ui/src/FileTypeIcon';

type Validator = (value: unknown) => string | undefined;

/**
 * Spec 000 §5: free text of at most 260 characters that does not start with a formula character. Marked
 * `isRequired` so react-admin shows the asterisk, as it does for its own `required()`.
 */
export const validateTitle: Validator & { isRequired: true } = Object.assign(
  (value: unknown) => {
    const text = typeof value === 'string' ? value.trim() : '';
    if (!text) return messages.required;
    const parsed = safeText().safeParse(text);
    return parsed.success ? undefined : (parsed.error.issues[0]?.message ?? messages.required);
  },
  { isRequired: true as const },
);

export const FILE_REQUIRED = 'Please choose the file to upload';

const validateFileRequired: Validator = (value) => (value instanceof File ? undefined : FILE_REQUIRED);

/**
 * What the file picker offers: the annexure kinds of the shared upload rules. Only a hint: the API checks
 * extension and magic bytes and answers 415 with the spec's message, which the error dialog shows.
 */
export const ANNEXURE_ACCEPT = acceptOf('annexure');

/** A plain file input bound to the form (`file`): the chosen file's icon, name and size beside the button. */
export const AnnexureFileInput = ({ required, label = 'Choose file' }: { required: boolean; label?: string }) => {
  const helperId = useId();
  const { field, fieldState, formState } = useInput({
    source: 'file',
    defaultValue: null,
    validate: required ? validateFileRequired : undefined,
  });
  const file = field.value instanceof File ? field.value : null;
  const showError = Boolean(fieldState.error) && (fieldState.isTouched || formState.isSubmitted);
  return (
    <Box sx={{ mb: 2 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Button component="label" variant="outlined" startIcon={<UploadFileIcon />}>
          {file ? 'Choose another file' : label}
          {required ? ' *' : ''}
          <input
            type="file"
            name="file"
            accept={ANNEXURE_ACCEPT}
            aria-describedby={helperId}
            style={{ position: 'absolute', width: 1, height: 1, opacity: 0, overflow: 'hidden' }}
            onChange={(e) => {
              field.onChange(e.target.files?.[0] ?? null);
              field.onBlur();
              // The same file chosen again after a refusal still fires a change.
              e.target.value = '';
            }}
          />
        </Button>
        {file && (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }} data-testid="chosen-file">
            <FileTypeIcon kind={fileKindOf({ fileName: file.name, fileType: file.type })} />
            <Typography noWrap sx={{ maxWidth: 360 }}>
              {file.name}
            </Typography>
            <Typography color="text.secondary">({formatFileSize(file.size)})</Typography>
          </Stack>
        )}
      </Stack>
      <FormHelperText id={helperId} error={showError}>
        <InputHelperText
          error={showError ? fieldState.error?.message : undefined}
          helperText="PDF, image (JPG, PNG, GIF), Word or Excel (.xlsx)"
        />
      </FormHelperText>
    </Box>
  );
};

export const TitleInput = () => (
  <TextInput source="title" label="Title" validate={validateTitle} fullWidth sx={{ maxWidth: 560 }} />
);

/** Shown while a file is on its way: large files take a while and the user should see it moving. */
export const UploadProgress = ({ value }: { value: number | null }) =>
  value === null ? null : (
    <Box sx={{ width: '100%', maxWidth: 560, my: 1 }}>
      <LinearProgress variant="determinate" value={Math.round(value * 100)} aria-label="Upload progress" />
      <Typography variant="caption" color="text.secondary">
        {value < 1 ? `Uploading… ${Math.round(value * 100)} %` : 'Checking and storing the file…'}
      </Typography>
    </Box>
  );
