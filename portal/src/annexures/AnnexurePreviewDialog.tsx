import { useId } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import DownloadIcon from '@mui/icons-material/Download';
import type { FileKind } from '../../../ui/src/FileTypeIcon';
import { saveUrl } from '../../../ui/src/saveBlob';
import type { Annexure } from './api';

/** A file fetched for preview: an object URL of its bytes, which its owner revokes once the dialog is gone. */
export type Preview = { annexure: Annexure; kind: Extract<FileKind, 'pdf' | 'image'>; url: string };

/**
 * Spec 001 §2: PDFs and images preview in a dialog frame, with a Download button. The frame shows a blob: URL
 * of bytes fetched with the session (a frame's own request could not carry the Authorization header).
 */
export function AnnexurePreviewDialog({
  preview,
  open,
  onClose,
  onExited,
}: {
  preview: Preview | null;
  open: boolean;
  onClose: () => void;
  onExited: () => void;
}) {
  const titleId = useId();
  if (!preview) return null;
  const { annexure, kind, url } = preview;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth="lg"
      fullWidth
      slotProps={{ transition: { onExited } }}
    >
      <DialogTitle id={titleId}>{annexure.title}</DialogTitle>
      <DialogContent dividers sx={{ p: kind === 'pdf' ? 0 : 2, bgcolor: 'grey.100' }}>
        {kind === 'pdf' ? (
          <Box
            component="iframe"
            src={url}
            title={`${annexure.title} (PDF preview)`}
            data-testid="annexure-preview-frame"
            sx={{ display: 'block', width: '100%', height: '75vh', border: 0 }}
          />
        ) : (
          <Box
            component="img"
            src={url}
            alt={annexure.title}
            data-testid="annexure-preview-image"
            sx={{ display: 'block', maxWidth: '100%', maxHeight: '75vh', mx: 'auto', objectFit: 'contain' }}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button startIcon={<DownloadIcon />} onClick={() => saveUrl(url, annexure.fileName)}>
          Download
        </Button>
        <Button variant="contained" onClick={onClose}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
