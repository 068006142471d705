import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { megabytes } from '../../../domain/src/validation/files';
import type { DocumentKind, DocumentRow, DocumentUpload } from '../api/onboarding';
import { useFeedback } from '../shared/feedback';
import { TextInput, useFailure, useFormValues, type Errors } from './itemFields';
import { documentAccept, fileProblem, DOCUMENT_FILE_KIND, today, validateDocument } from './itemValidation';

export const documentTexts = {
  uploaded: 'File uploaded successfully',
  deleted: 'File deleted successfully',
  accepted: 'Images (jpg, jpeg, png, gif), PDF, doc or docx',
} as const;

export type UploadTarget = {
  documentTypeId: number;
  name: string;
  kind: DocumentKind;
  needsValidityDate: boolean;
  stateId: number | null;
  stateName: string | null;
  /** The document it replaces, when there is one. */
  current: DocumentRow | null;
};

/**
 * Uploads (or replaces) one document: its number, its validity date when the type needs one (today or later),
 * and the file (spec 000 §5 "Files": image, pdf, doc or docx, with the spec's message for anything else).
 */
export function DocumentUploadDialog({
  target,
  onClose,
  upload,
  onUploaded,
}: {
  target: UploadTarget;
  onClose: () => void;
  upload: (file: File, body: DocumentUpload) => Promise<{ message?: string }>;
  onUploaded: () => Promise<void>;
}) {
  const { notify, withLoading } = useFeedback();
  const failed = useFailure();
  const { values, errors, setErrors, set } = useFormValues({
    documentNumber: target.current?.documentNumber ?? '',
    validTill: '',
    stateId: target.stateId === null ? '' : String(target.stateId),
  });
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const title = `${target.current ? 'Replace' : 'Upload'} ${target.name}${target.stateName ? ` — ${target.stateName}` : ''}`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const checked = validateDocument(values, {
      documentTypeId: target.documentTypeId,
      kind: target.kind,
      needsValidityDate: target.needsValidityDate,
      file,
    });
    if (!checked.ok || !file) return setErrors(checked.ok ? {} : checked.errors);
    setBusy(true);
    try {
      const row = await withLoading(() => upload(file, checked.data), 'Uploading');
      notify(row.message ?? documentTexts.uploaded);
      await onUploaded();
    } catch (e) {
      // The server's file messages (type, size, content) come back on `file` or as the message.
      failed(e, (found: Errors) => setErrors(found));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="sm" fullWidth aria-labelledby="upload-title">
      <DialogTitle id="upload-title">{title}</DialogTitle>
      <Box component="form" noValidate aria-label="Upload document" onSubmit={(e) => void submit(e)}>
        <DialogContent>
          <Stack spacing={1}>
            <TextInput
              idPrefix="doc"
              name="documentNumber"
              label="Document Number"
              value={values.documentNumber}
              onChange={(v) => set('documentNumber', v)}
              error={errors['documentNumber']}
              disabled={busy}
              hint="Optional"
            />
            {target.needsValidityDate && (
              <TextInput
                idPrefix="doc"
                name="validTill"
                label="Valid Till"
                type="date"
                required
                value={values.validTill}
                onChange={(v) => set('validTill', v)}
                error={errors['validTill']}
                disabled={busy}
                slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: today() } }}
              />
            )}
            <Box>
              <Typography component="label" htmlFor="doc-file" variant="body2" sx={{ display: 'block', mb: 0.5 }}>
                File *
              </Typography>
              <input
                id="doc-file"
                name="file"
                type="file"
                accept={documentAccept}
                data-testid="document-file"
                aria-describedby="doc-file-help"
                aria-invalid={Boolean(errors['file'])}
                disabled={busy}
                onChange={(e) => {
                  const chosen = e.target.files?.[0] ?? null;
                  setFile(chosen);
                  // Say at once when the type is wrong rather than after the click.
                  setErrors((old) => ({ ...old, file: chosen ? (fileProblem(chosen, DOCUMENT_FILE_KIND) ?? undefined) : undefined }));
                }}
              />
              <FormHelperText id="doc-file-help" error={Boolean(errors['file'])}>
                {errors['file'] ?? documentTexts.accepted}
              </FormHelperText>
            </Box>
            {file && (
              <Typography variant="body2" color="text.secondary">
                {file.name} ({megabytes(file.size)} MB)
              </Typography>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={busy} data-testid="save-document">
            Upload
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
