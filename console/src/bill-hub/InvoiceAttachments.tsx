import { Button, List as MuiList, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { useNotify } from 'react-admin';
import { errorText } from '../providers/httpClient';
import { useSaveDownload } from '../shared/useSaveDownload';
import { fetchAttachment } from './api';
import type { InvoiceAttachment } from './types';

const VIEW_URL_LIFETIME_MS = 60_000;

const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/**
 * The invoice's files. Fetched with the session's token (GET /api/invoices/:id/attachments/:attachmentId), so
 * "View" opens the fetched file in a new tab and "Download" saves it under its name; a plain link could not
 * send the Authorization header.
 */
export const InvoiceAttachments = ({ invoiceId, attachments }: { invoiceId: string; attachments: InvoiceAttachment[] }) => {
  const notify = useNotify();
  const saveDownload = useSaveDownload();
  if (attachments.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        No attachments
      </Typography>
    );
  }
  const view = (a: InvoiceAttachment) => {
    // Opened before the fetch so a pop-up blocker sees the click; filled when the file is here.
    const tab = window.open('', '_blank');
    fetchAttachment(invoiceId, a, true)
      .then(({ blob }) => {
        const url = URL.createObjectURL(blob);
        if (tab) tab.location.href = url;
        else window.open(url, '_blank', 'noopener');
        setTimeout(() => URL.revokeObjectURL(url), VIEW_URL_LIFETIME_MS);
      })
      .catch((error: unknown) => {
        tab?.close();
        notify(errorText(error), { type: 'error' });
      });
  };
  const download = (a: InvoiceAttachment) => saveDownload(fetchAttachment(invoiceId, a));
  return (
    <MuiList dense disablePadding aria-label="Attachments">
      {attachments.map((a) => (
        <ListItem
          key={a.attachmentId}
          disableGutters
          secondaryAction={
            <Stack direction="row" spacing={1}>
              <Button size="small" startIcon={<VisibilityIcon />} onClick={() => view(a)} aria-label={`View ${a.name}`}>
                View
              </Button>
              <Button size="small" startIcon={<DownloadIcon />} onClick={() => void download(a)} aria-label={`Download ${a.name}`}>
                Download
              </Button>
            </Stack>
          }
        >
          <ListItemText primary={a.name} secondary={sizeText(a.size)} />
        </ListItem>
      ))}
    </MuiList>
  );
};
