import { useCallback, useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import { saveUrl } from '../../../ui/src/saveBlob';
import { useFeedback } from '../shared/feedback';
import { useFailure } from './itemFields';

type Shown = { title: string; fileName: string; url: string; type: string };

/**
 * Views an uploaded file in a dialog: the bytes come through the API client (a frame's own request could not
 * carry the Authorization header) and are shown from a blob: URL, which the CSP allows; PDFs in a frame,
 * images as an image, anything else (doc, docx) offered for download. The URL is revoked when it closes.
 */
export function useFileViewer() {
  const [shown, setShown] = useState<Shown | null>(null);
  const { withLoading } = useFeedback();
  const failed = useFailure();

  useEffect(() => () => {
    if (shown) URL.revokeObjectURL(shown.url);
  }, [shown]);

  const view = useCallback(
    async (title: string, fileName: string, load: () => Promise<Blob>) => {
      try {
        const blob = await withLoading(load, 'Loading');
        setShown({ title, fileName, url: URL.createObjectURL(blob), type: blob.type });
      } catch (e) {
        failed(e);
      }
    },
    [withLoading, failed],
  );

  const viewer = <FileViewerDialog shown={shown} onClose={() => setShown(null)} />;
  return { view, viewer };
}

function FileViewerDialog({ shown, onClose }: { shown: Shown | null; onClose: () => void }) {
  if (!shown) return null;
  const pdf = shown.type === 'application/pdf' || /\.pdf$/i.test(shown.fileName);
  const image = shown.type.startsWith('image/') || /\.(png|jpe?g|gif)$/i.test(shown.fileName);
  return (
    <Dialog open onClose={onClose} maxWidth="lg" fullWidth aria-labelledby="file-viewer-title">
      <DialogTitle id="file-viewer-title">{shown.title}</DialogTitle>
      <DialogContent dividers sx={{ p: pdf ? 0 : 2, bgcolor: 'grey.100' }}>
        {pdf ? (
          <Box
            component="iframe"
            src={shown.url}
            title={`${shown.title} (PDF)`}
            data-testid="file-viewer-frame"
            sx={{ display: 'block', width: '100%', height: '75vh', border: 0 }}
          />
        ) : image ? (
          <Box
            component="img"
            src={shown.url}
            alt={shown.title}
            data-testid="file-viewer-image"
            sx={{ display: 'block', maxWidth: '100%', maxHeight: '75vh', mx: 'auto', objectFit: 'contain' }}
          />
        ) : (
          <Typography>This file cannot be shown here. Download it to open it.</Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button startIcon={<DownloadIcon />} onClick={() => saveUrl(shown.url, shown.fileName)}>
          Download
        </Button>
        <Button variant="contained" onClick={onClose}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
