import { Alert } from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Create, SaveButton, SimpleForm, Toolbar, useNotify, useRedirect } from 'react-admin';
import type { FieldValues } from 'react-hook-form';
import { AnnexureFileInput, TitleInput, UploadProgress } from './AnnexureInputs';
import { ANNEXURE_MESSAGES, useAnnexureCommand } from './useAnnexureCommand';

const CreateToolbar = ({ busy }: { busy: boolean }) => (
  <Toolbar>
    <SaveButton label="Upload" icon={<UploadFileIcon />} disabled={busy} />
  </Toolbar>
);

/**
 * A new PO annexure: its title and the file (spec 001 §3 "Annexure"). The upload is a multipart command with
 * a progress bar; on success the spec's "Uploaded successfully", then the list.
 */
export const AnnexureCreate = () => {
  const { run, progress, busy } = useAnnexureCommand();
  const notify = useNotify();
  const redirect = useRedirect();

  const submit = async (values: FieldValues) => {
    const file: unknown = values['file'];
    if (!(file instanceof File)) return;
    const title = String(values['title'] ?? '').trim();
    const result = await run((dataProvider, idempotencyKey, onProgress) =>
      dataProvider.uploadAnnexure({ title, file, idempotencyKey, onProgress }),
    );
    // Undefined after a refusal (the dialog said why); an empty record while react-admin signs out after a 401.
    if (!result?.data || !('id' in result.data)) return;
    notify(ANNEXURE_MESSAGES.uploaded, { type: 'success' });
    redirect('list', 'annexures');
  };

  return (
    <Create title="Upload PO annexure" resource="annexures">
      <SimpleForm onSubmit={submit} toolbar={<CreateToolbar busy={busy} />} defaultValues={{ title: '', file: null }}>
        <Alert severity="info" sx={{ mb: 2, maxWidth: 560 }}>
          BAs see each annexure on their PO Annexures page as soon as it is uploaded.
        </Alert>
        <TitleInput />
        <AnnexureFileInput required />
        <UploadProgress value={progress} />
      </SimpleForm>
    </Create>
  );
};
