import { useRef, useState } from 'react';
import { Alert, Box, Button, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { useNotify } from 'react-admin';
import { saveBlob } from '../../../../ui/src/saveBlob';
import { errorText } from '../../providers/httpClient';
import { rfpTypeLabel } from '../labels';
import type { RfpCommandAnswer, RfpStaffView } from '../types';
import { downloadLaneTemplate, uploadLanes, type LaneUploadOutcome } from './api';
import { useWizardSave } from './useWizardSave';

export const STEP3_TEXTS = {
  lanes: (n: number) => `Lanes uploaded: ${n}`,
  nonStandard: 'A non-standard RFP takes the customer’s own sheet: the columns chosen in step 2 are found by their labels',
  downloadErrors: 'Download error file',
  next: 'Next: BA selection',
} as const;

/**
 * Step 3: the lane template (its columns are step 2's choice) and the filled sheet's upload. A refused sheet comes
 * back as the error workbook ('RFPTemplateError-{rfpCode}.xlsx'), offered with the API's first message until the
 * next good upload; a good one shows 'File upload successful...!!!' and the lane count.
 */
export const Step3Lanes = ({
  rfp,
  onUploaded,
  onNext,
}: {
  rfp: RfpStaffView;
  onUploaded: (answer: RfpCommandAnswer) => void;
  /** Opens step 4; null while step 4 is not enabled (no lanes yet, or the non-standard delay running). */
  onNext: (() => void) | null;
}) => {
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  const [downloading, setDownloading] = useState(false);
  const [outcome, setOutcome] = useState<LaneUploadOutcome | null>(null);

  const upload = useWizardSave(
    (file: File, key: string) => uploadLanes(rfp.rfpCode, file, key),
    (answer) => {
      setOutcome(answer);
      if (answer.ok) onUploaded(answer.rfp);
    },
  );

  const downloadTemplate = async () => {
    setDownloading(true);
    try {
      const { blob, fileName } = await downloadLaneTemplate(rfp.rfpCode, rfp.customerName);
      saveBlob(blob, fileName);
    } catch (error) {
      notify(errorText(error), { type: 'error' });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Box sx={{ display: 'grid', gap: 2 }} role="group" aria-label="Lanes">
      <Typography variant="body2">
        RFP type: {rfpTypeLabel(rfp.rfpType)} · {STEP3_TEXTS.lanes(rfp.laneCount)}
      </Typography>
      {rfp.rfpType === 'non-standard' && <Typography color="text.secondary">{STEP3_TEXTS.nonStandard}</Typography>}
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button variant="outlined" startIcon={<DownloadIcon />} disabled={downloading} onClick={() => void downloadTemplate()}>
          Download template
        </Button>
        <Button variant="contained" startIcon={<UploadFileIcon />} disabled={upload.isPending} onClick={() => input.current?.click()}>
          Upload lanes
        </Button>
        <input
          ref={input}
          type="file"
          hidden
          accept=".xlsx,.xls,.csv"
          data-testid="rfp-lanes-input"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) upload.run(file);
          }}
        />
      </Box>
      {outcome?.ok === true && (
        <Alert severity="success">
          {outcome.message} {STEP3_TEXTS.lanes(outcome.lanes)}
        </Alert>
      )}
      {/* The stepper opens step 4 too; after an upload the way on should not have to be looked for. */}
      {onNext && (
        <Box>
          <Button variant="contained" onClick={onNext}>
            {STEP3_TEXTS.next}
          </Button>
        </Box>
      )}
      {outcome?.ok === false && (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" startIcon={<DownloadIcon />} onClick={() => saveBlob(outcome.workbook, outcome.fileName)}>
              {STEP3_TEXTS.downloadErrors}
            </Button>
          }
        >
          {outcome.message}
        </Alert>
      )}
    </Box>
  );
};
