import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
} from '@mui/material';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { useDataProvider, type Identifier } from 'react-admin';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { errorText } from '../../providers/httpClient';

type Loaded = { url: string; type: string } | { error: string } | null;

/**
 * Views a stored file inline: it is fetched with the session's token (a plain link cannot send the header),
 * shown from a blob URL in a dialog (images as images, PDFs in a frame) and can be opened in a new tab. The
 * blob URL is revoked when the dialog closes.
 */
export const FileViewButton = ({
  baId,
  filePath,
  fileName,
  label = 'View',
}: {
  baId: Identifier;
  /** Under the BA: `documents/<docId>/file`, `concessions/<id>/file`. */
  filePath: string;
  fileName: string;
  label?: string;
}) => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState<Loaded>(null);

  useEffect(() => {
    if (!open) return;
    let url: string | null = null;
    let cancelled = false;
    dataProvider.getBaFile(baId, filePath).then(
      (blob) => {
        if (cancelled) return;
        url = URL.createObjectURL(blob);
        setLoaded({ url, type: blob.type });
      },
      (error: unknown) => !cancelled && setLoaded({ error: errorText(error) }),
    );
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
      setLoaded(null);
    };
  }, [open, baId, filePath, dataProvider]);

  return (
    <>
      <Button
        size="small"
        startIcon={<VisibilityIcon />}
        aria-label={`${label} ${fileName}`}
        data-testid="view-file"
        onClick={() => setOpen(true)}
      >
        {label}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="lg" aria-labelledby="file-viewer-title">
        <DialogTitle id="file-viewer-title">{fileName}</DialogTitle>
        <DialogContent sx={{ minHeight: 300 }}>
          {loaded === null && <CircularProgress aria-label="Loading file" />}
          {loaded && 'error' in loaded && <Alert severity="error">{loaded.error}</Alert>}
          {loaded && 'url' in loaded &&
            (loaded.type.startsWith('image/') ? (
              <Box component="img" src={loaded.url} alt={fileName} sx={{ maxWidth: '100%' }} />
            ) : (
              <Box
                component="iframe"
                src={loaded.url}
                title={fileName}
                sx={{ width: '100%', height: '70vh', border: 0 }}
              />
            ))}
        </DialogContent>
        <DialogActions>
          {loaded && 'url' in loaded && (
            <Button component="a" href={loaded.url} target="_blank" rel="noopener">
              Open in new tab
            </Button>
          )}
          <Button onClick={() => setOpen(false)}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
};
