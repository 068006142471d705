import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { FileTypeIcon, fileKindOf, isPreviewable } from '../../../ui/src/FileTypeIcon';
import { saveBlob } from '../../../ui/src/saveBlob';
import { useApi } from '../api/ApiContext';
import { isApiError, messageOf } from '../api/client';
import { useFeedback } from '../shared/feedback';
import { annexuresApi, type Annexure } from './api';
import { AnnexurePreviewDialog, type Preview } from './AnnexurePreviewDialog';

export const PO_POLICY_PATH = '/po-policy';

export const annexureTexts = {
  heading: 'PO Annexures',
  action: 'Preview & Download',
  note: 'Only applicable if you have a MLL PO',
  empty: 'No annexures are available right now.',
} as const;

/** Spec 001 §9: four cards per row on large screens; three, two, one as the screen narrows. */
export const CARD_COLUMNS = { xs: 12, sm: 6, md: 4, lg: 3 } as const;

/**
 * The frame shows the bytes as the type the card promised, never as whatever the response said: a PDF frame
 * renders a PDF, and nothing the server sent can become an HTML page running on the portal's origin.
 */
const FRAME_TYPE = 'application/pdf';

function AnnexureCard({ annexure, onOpen }: { annexure: Annexure; onOpen: (a: Annexure) => void }) {
  const titleId = useId();
  return (
    <Card
      variant="outlined"
      component="article"
      aria-labelledby={titleId}
      data-testid="annexure-card"
      sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
    >
      <CardContent
        sx={{ flexGrow: 1, display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center' }}
      >
        <FileTypeIcon kind={fileKindOf(annexure)} sx={{ fontSize: 56, mb: 1 }} />
        <Typography id={titleId} variant="subtitle1" component="h2" sx={{ fontWeight: 600, wordBreak: 'break-word' }}>
          {annexure.title}
        </Typography>
      </CardContent>
      <CardActions sx={{ flexDirection: 'column', gap: 1, px: 2, pb: 2 }}>
        <Button variant="contained" fullWidth aria-describedby={titleId} onClick={() => onOpen(annexure)}>
          {annexureTexts.action}
        </Button>
        <Typography variant="caption" color="text.secondary" sx={{ m: 0 }}>
          {annexureTexts.note}
        </Typography>
      </CardActions>
    </Card>
  );
}

/**
 * '/po-policy' (spec 001 §2 "PO Annexures"): a card per annexure. PDFs and images open in a preview dialog;
 * every other kind (xlsx, Word) is downloaded at once, since a browser frame could only download it anyway.
 * A failing list shows the empty page and no error (spec 000 §8: "Annexure list failure is ignored silently").
 */
export function AnnexuresPage() {
  const client = useApi();
  const api = useMemo(() => annexuresApi(client), [client]);
  const { showError, withLoading } = useFeedback();
  const [annexures, setAnnexures] = useState<Annexure[] | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [previewOpen, setPreviewOpen] = useState(false);
  const previewUrl = useRef<string | null>(null);

  useEffect(() => {
    let live = true;
    api.list().then(
      (rows) => live && setAnnexures(rows),
      () => live && setAnnexures([]),
    );
    return () => {
      live = false;
    };
  }, [api]);

  // Leaving the page with the dialog open must not keep the file's bytes alive.
  useEffect(
    () => () => {
      if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
    },
    [],
  );

  const open = useCallback(
    async (annexure: Annexure) => {
      const kind = fileKindOf(annexure);
      try {
        if (isPreviewable(kind)) {
          const blob = await withLoading(() => api.file(annexure.id, { inline: true }));
          const typed = kind === 'pdf' ? new Blob([blob], { type: FRAME_TYPE }) : blob;
          const url = URL.createObjectURL(typed);
          previewUrl.current = url;
          setPreview({ annexure, kind, url });
          setPreviewOpen(true);
        } else {
          saveBlob(await withLoading(() => api.file(annexure.id)), annexure.fileName);
        }
      } catch (e) {
        // A session that cannot be renewed is handled by the session (back to login), not by a dialog.
        if (!(isApiError(e) && e.status === 401)) showError(messageOf(e));
      }
    },
    [api, showError, withLoading],
  );

  const closed = () => {
    if (preview) URL.revokeObjectURL(preview.url);
    previewUrl.current = null;
    setPreview(null);
  };

  return (
    <Stack spacing={3}>
      <Typography variant="h5" component="h1">
        {annexureTexts.heading}
      </Typography>
      {annexures === null ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
          <CircularProgress aria-label="Loading annexures" />
        </Box>
      ) : annexures.length === 0 ? (
        <Typography color="text.secondary" data-testid="annexures-empty">
          {annexureTexts.empty}
        </Typography>
      ) : (
        <Grid container spacing={3}>
          {annexures.map((annexure) => (
            <Grid key={annexure.id} size={CARD_COLUMNS}>
              <AnnexureCard annexure={annexure} onOpen={(a) => void open(a)} />
            </Grid>
          ))}
        </Grid>
      )}
      <AnnexurePreviewDialog
        preview={preview}
        open={previewOpen}
        onClose={() => setPreviewOpen(false)}
        onExited={closed}
      />
    </Stack>
  );
}

