import { useId, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Typography } from '@mui/material';
import FindReplaceIcon from '@mui/icons-material/FindReplace';
import { Form, SaveButton, useNotify, useRefresh } from 'react-admin';
import type { FieldValues } from 'react-hook-form';
import { FileTypeIcon, fileKindOf, formatFileSize } from '../../../ui/src/FileTypeIcon';
import { AnnexureFileInput, TitleInput, UploadProgress } from './AnnexureInputs';
import type { AnnexureRow } from './types';
import { ANNEXURE_MESSAGES, useAnnexureCommand } from './useAnnexureCommand';

export const NOTHING_CHANGED = 'Choose a new file or change the title';

/** A replacement must change something: the title, the file, or both. */
const validateChange = (annexure: AnnexureRow) => (values: FieldValues) =>
  values['file'] instanceof File || String(values['title'] ?? '').trim() !== annexure.title
    ? {}
    : { file: NOTHING_CHANGED };

/**
 * Replaces an annexure's file and/or title (PUT /api/annexures/:id): BAs see the new version under the same
 * card. A new file: "File uploaded successfully" (spec); a new title alone: "Title updated successfully".
 */
export const ReplaceAnnexureButton = ({ annexure }: { annexure: AnnexureRow }) => {
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const { run, progress, busy } = useAnnexureCommand();
  const notify = useNotify();
  const refresh = useRefresh();

  const submit = async (values: FieldValues) => {
    const file = values['file'] instanceof File ? values['file'] : null;
    const title = String(values['title'] ?? '').trim();
    const result = await run((dataProvider, idempotencyKey, onProgress) =>
      dataProvider.replaceAnnexure(annexure.id, {
        ...(title !== annexure.title ? { title } : {}),
        file,
        idempotencyKey,
        onProgress,
      }),
    );
    if (!result?.data || !('id' in result.data)) return;
    setOpen(false);
    notify(file ? ANNEXURE_MESSAGES.fileReplaced : ANNEXURE_MESSAGES.titleChanged, { type: 'success' });
    refresh();
  };

  const kind = fileKindOf(annexure);
  return (
    <>
      <Button size="small" startIcon={<FindReplaceIcon />} onClick={() => setOpen(true)}>
        Replace
      </Button>
      <Dialog
        open={open}
        onClose={() => (busy ? undefined : setOpen(false))}
        aria-labelledby={titleId}
        maxWidth="sm"
        fullWidth
      >
        {open && (
          <Form
            onSubmit={submit}
            defaultValues={{ title: annexure.title, file: null }}
            validate={validateChange(annexure)}
          >
            <DialogTitle id={titleId}>Replace annexure</DialogTitle>
            <DialogContent>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2 }}>
                <Typography color="text.secondary">Current file:</Typography>
                <FileTypeIcon kind={kind} fontSize="small" />
                <Typography noWrap>{annexure.fileName}</Typography>
                <Typography color="text.secondary">({formatFileSize(annexure.size)})</Typography>
              </Stack>
              <TitleInput />
              <AnnexureFileInput required={false} label="Choose new file" />
              <UploadProgress value={progress} />
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setOpen(false)} disabled={busy}>
                Cancel
              </Button>
              <SaveButton label="Replace" icon={<FindReplaceIcon />} disabled={busy} alwaysEnable={!busy} />
            </DialogActions>
          </Form>
        )}
      </Dialog>
    </>
  );
};
