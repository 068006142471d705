import { useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, LinearProgress, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import UploadIcon from '@mui/icons-material/Upload';
import { Title, useNotify, usePermissions } from 'react-admin';
import { v4 as uuidv4 } from 'uuid';
import { extensionOf } from '../../../domain/src/validation/files';
import { ErrorDialog } from '../../../ui/src/ErrorDialog';
import { saveBlob } from '../../../ui/src/saveBlob';
import { errorText } from '../providers/httpClient';
import { mayMassUpload } from '../vendor-code/access';
import type { MassUploadKind, MassUploadSummary } from '../vendor-code/types';
import {
  downloadMassUploadTemplate,
  fetchMassUploadProgress,
  MASS_UPLOAD_FILES,
  MASS_UPLOAD_MESSAGES,
  uploadMassUpload,
} from './api';

/** How often a long upload's progress is read. */
export const PROGRESS_POLL_MS = 1_000;

type Phase =
  | { kind: 'idle' }
  | { kind: 'uploading'; fileName: string }
  | { kind: 'processing'; uploadId: string; processed: number; total: number }
  | { kind: 'done'; summary: Partial<MassUploadSummary> & { message: string } }
  | { kind: 'errors'; fileName: string };

const summaryLine = (s: Partial<MassUploadSummary>) =>
  s.rows === undefined ? '' : `${s.rows} rows: ${s.created ?? 0} created, ${s.unchanged ?? 0} unchanged.`;

const isExcel = (name: string) => {
  const ext = extensionOf(name);
  return ext === 'xlsx' || ext === 'xls';
};

const MassUploadCard = ({ kind }: { kind: MassUploadKind }) => {
  const files = MASS_UPLOAD_FILES[kind];
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const [downloading, setDownloading] = useState(false);
  const busy = phase.kind === 'uploading' || phase.kind === 'processing';

  // A long upload (202): read its progress until it is done.
  const uploadId = phase.kind === 'processing' ? phase.uploadId : null;
  useEffect(() => {
    if (!uploadId) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const p = await fetchMassUploadProgress(uploadId);
        if (stopped) return;
        if (p.state === 'failed') {
          setPhase({ kind: 'idle' });
          setError(p.message || 'The upload failed');
          return;
        }
        // 'recording' while the rows are appended; then 'recorded' (the ERP step goes on by itself) or the
        // stored upload's own state.
        if (p.state !== 'recording' && p.state !== 'running') {
          const message = p.message || MASS_UPLOAD_MESSAGES.uploaded;
          setPhase({ kind: 'done', summary: { rows: p.total, ...p, message } });
          notify(message, { type: 'success' });
          return;
        }
        setPhase({ kind: 'processing', uploadId, processed: p.processed, total: p.total });
      } catch (e) {
        if (stopped) return;
        setPhase({ kind: 'idle' });
        setError(errorText(e));
        return;
      }
      timer = setTimeout(poll, PROGRESS_POLL_MS);
    };
    timer = setTimeout(poll, PROGRESS_POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
    // Polling restarts only for a new upload id, not on each progress step.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [uploadId]);

  const upload = async (file: File) => {
    if (!isExcel(file.name)) {
      setError(MASS_UPLOAD_MESSAGES.onlyExcel);
      return;
    }
    setPhase({ kind: 'uploading', fileName: file.name });
    try {
      const outcome = await uploadMassUpload(kind, file, uuidv4());
      if (outcome.kind === 'errors') {
        saveBlob(outcome.blob, outcome.fileName);
        setPhase({ kind: 'errors', fileName: outcome.fileName });
        notify(MASS_UPLOAD_MESSAGES.errorsInFile, { type: 'error' });
      } else if (outcome.kind === 'accepted') {
        setPhase({ kind: 'processing', uploadId: outcome.uploadId, processed: 0, total: 0 });
      } else {
        const message = outcome.summary.message || MASS_UPLOAD_MESSAGES.uploaded;
        setPhase({ kind: 'done', summary: { ...outcome.summary, message } });
        notify(message, { type: 'success' });
      }
    } catch (e) {
      setPhase({ kind: 'idle' });
      setError(errorText(e));
    }
  };

  const template = async () => {
    setDownloading(true);
    try {
      const { blob, fileName } = await downloadMassUploadTemplate(kind);
      saveBlob(blob, fileName);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Card variant="outlined" data-testid={`mass-upload-${kind}`}>
      <CardContent sx={{ display: 'grid', gap: 2 }}>
        <Typography variant="h6" component="h2">
          {files.label}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Download the template, fill in the Parent and Child sheets and upload it (.xlsx or .xls). Every row is checked
          first: if any row has an error, nothing is saved and a workbook with the errors downloads.
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Button variant="outlined" startIcon={<DownloadIcon />} onClick={template} disabled={downloading}>
            Download Template
          </Button>
          <Button variant="contained" startIcon={<UploadIcon />} onClick={() => input.current?.click()} disabled={busy}>
            Upload
          </Button>
          <input
            ref={input}
            type="file"
            hidden
            accept=".xlsx,.xls"
            aria-label={`${files.label} file`}
            data-testid={`mass-upload-file-${kind}`}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void upload(file);
            }}
          />
        </Box>
        {phase.kind === 'uploading' && (
          <Box>
            <Typography variant="body2">Uploading and checking {phase.fileName}…</Typography>
            <LinearProgress aria-label="Upload progress" />
          </Box>
        )}
        {phase.kind === 'processing' && (
          <Box>
            <Typography variant="body2">
              Saving rows{phase.total > 0 ? `: ${phase.processed} of ${phase.total}` : '…'}
            </Typography>
            <LinearProgress
              aria-label="Upload progress"
              variant={phase.total > 0 ? 'determinate' : 'indeterminate'}
              value={phase.total > 0 ? (100 * phase.processed) / phase.total : undefined}
            />
          </Box>
        )}
        {phase.kind === 'done' && (
          <Alert severity="success" data-testid="mass-upload-result">
            {phase.summary.message} {summaryLine(phase.summary)}
          </Alert>
        )}
        {phase.kind === 'errors' && (
          <Alert severity="error" data-testid="mass-upload-result">
            {MASS_UPLOAD_MESSAGES.errorsInFile} ({phase.fileName})
          </Alert>
        )}
      </CardContent>
      <ErrorDialog open={error !== null} message={error ?? ''} onClose={() => setError(null)} />
    </Card>
  );
};

/**
 * /sap/mass-upload (MLL-ADMIN, MDM): Nucleus and SAP-verified mass uploads — template download, upload with
 * progress; a 201 saves the error workbook (Nucleus-Mass-Upload-Error.xlsx / SAP-Verified-Mass-Upload-Error.xlsx)
 * with the spec's message; other refusals show the API's message.
 */
export const MassUploadPage = () => {
  const { permissions, isPending } = usePermissions<string[]>();
  if (isPending) return null;
  if (!mayMassUpload(permissions)) {
    return <Alert severity="warning" sx={{ mt: 2 }}>You don't have enough rights to view this page.</Alert>;
  }
  return (
    <Box sx={{ mt: 1, display: 'grid', gap: 2 }}>
      <Title title="Mass Upload" />
      <Typography variant="h5" component="h1">
        Mass Upload
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        <MassUploadCard kind="nucleus" />
        <MassUploadCard kind="sap-verified" />
      </Box>
    </Box>
  );
};
