import { useRef, type ChangeEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import DownloadIcon from '@mui/icons-material/Download';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { INVOICE_ACCEPT, MAX_INVOICE_FILES } from './attachments';
import { billHubTexts } from './texts';
import type { InvoiceAttachment } from './types';

const sizeOf = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/**
 * The invoice's files (spec 001 §2 warning text verbatim). `editable` while the invoice is a draft or
 * rejected; the page does the checks, the saving of a new draft and the calls.
 */
export function AttachmentsPanel({
  attachments,
  editable,
  onAdd,
  onRemove,
  onDownload,
}: {
  attachments: InvoiceAttachment[];
  editable: boolean;
  onAdd: (files: File[]) => void;
  onRemove: (attachment: InvoiceAttachment) => void;
  onDownload: (attachment: InvoiceAttachment) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const chosen = (e: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(e.target.files ?? []);
    // The same file may be chosen again after a refusal.
    e.target.value = '';
    if (files.length > 0) onAdd(files);
  };

  return (
    <Stack spacing={1}>
      <Typography variant="h6" component="h2">
        Attachments
      </Typography>
      {editable && <Alert severity="warning">{billHubTexts.uploadWarning}</Alert>}
      {attachments.length > 0 ? (
        <List dense aria-label="Attachments">
          {attachments.map((a) => (
            <ListItem
              key={a.attachmentId}
              secondaryAction={
                <>
                  <IconButton aria-label={`Download ${a.name}`} onClick={() => onDownload(a)}>
                    <DownloadIcon />
                  </IconButton>
                  {editable && (
                    <IconButton aria-label={`Remove ${a.name}`} onClick={() => onRemove(a)}>
                      <DeleteIcon />
                    </IconButton>
                  )}
                </>
              }
            >
              <ListItemText primary={a.name} secondary={sizeOf(a.size)} />
            </ListItem>
          ))}
        </List>
      ) : (
        <Typography variant="body2" color="text.secondary">
          No files attached
        </Typography>
      )}
      {editable && (
        <div>
          <input
            ref={input}
            type="file"
            multiple
            hidden
            accept={INVOICE_ACCEPT}
            data-testid="invoice-file-input"
            onChange={chosen}
          />
          <Button
            variant="outlined"
            startIcon={<UploadFileIcon />}
            disabled={attachments.length >= MAX_INVOICE_FILES}
            onClick={() => input.current?.click()}
          >
            Attach files
          </Button>
        </div>
      )}
    </Stack>
  );
}
