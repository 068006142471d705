import { useRef, useState } from 'react';
import { Box, Button } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { useNotify, usePermissions } from 'react-admin';
import { rfpMessages } from '../../../domain/src/rfp/messages';
import { saveBlob } from '../../../ui/src/saveBlob';
import { errorText } from '../providers/httpClient';
import { mayChangeRfps } from './access';
import { downloadRfpFile, uploadTerms, type RfpDownload } from './api';
import { notNowReason } from './availability';
import { ReasonButton } from './ReasonButton';
import type { RfpStaffView } from './types';
import { useRfpCommand } from './useRfpCommand';

/** The BA column that asks for the vehicles available (api/src/rfp-workbooks VEHICLES_AVAILABLE_KEY). */
const VEHICLES_AVAILABLE_KEY = 'vehiclesAvailable';

export const RFP_FILE_TEXTS = {
  noLanes: 'No lanes uploaded yet',
  noAvailability: 'This RFP does not ask BAs for the vehicles available',
  noTerms: 'No terms and conditions file has been uploaded for this RFP',
} as const;

const isPdf = (file: File) => file.type === 'application/pdf' || /\.pdf$/i.test(file.name);

/**
 * The RFP's files: the template with its lanes, the quote matrix, vehicle availability (when the RFP asks for
 * it), and the T&C — uploaded (PDF, RFP staff roles) and downloaded. Files are fetched with the session and saved
 * through saveBlob; a refused download shows the API's message in the error dialog.
 */
export const RfpFiles = ({ rfp }: { rfp: RfpStaffView }) => {
  const { permissions } = usePermissions<string[]>();
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<RfpDownload | null>(null);
  const upload = useRfpCommand((file: { file: File }, key) => uploadTerms(rfp.rfpCode, file.file, key));
  const noLanes = rfp.laneCount > 0 ? null : RFP_FILE_TEXTS.noLanes;
  const asksAvailability = rfp.columns.some((c) => c.owner === 'ba' && c.key === VEHICLES_AVAILABLE_KEY);

  const download = async (which: RfpDownload) => {
    setBusy(which);
    try {
      const { blob, fileName } = await downloadRfpFile(rfp.rfpCode, which);
      saveBlob(blob, fileName);
    } catch (error) {
      notify(errorText(error), { type: 'error' });
    } finally {
      setBusy(null);
    }
  };
  const button = (which: RfpDownload, label: string, reason: string | null) => (
    <ReasonButton size="small" startIcon={<DownloadIcon />} reason={busy === which ? 'Downloading…' : reason} onClick={() => void download(which)}>
      {label}
    </ReasonButton>
  );

  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }} role="group" aria-label="RFP files">
      {button('templateWithData', 'Template with data', noLanes)}
      {button('quoteMatrix', 'Quote matrix', noLanes)}
      {button('vehicleAvailability', 'Vehicle availability', noLanes ?? (asksAvailability ? null : RFP_FILE_TEXTS.noAvailability))}
      {button('terms', 'Download T&C', rfp.terms ? null : RFP_FILE_TEXTS.noTerms)}
      {mayChangeRfps(permissions) && (
        <>
          <ReasonButton
            size="small"
            startIcon={<UploadFileIcon />}
            reason={upload.isPending ? 'Uploading…' : notNowReason('UploadTerms', rfp.status)}
            onClick={() => input.current?.click()}
          >
            Upload T&C
          </ReasonButton>
          <input
            ref={input}
            type="file"
            accept="application/pdf,.pdf"
            hidden
            data-testid="rfp-terms-input"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (!file) return;
              if (!isPdf(file)) {
                notify(rfpMessages.termsPdf, { type: 'error' });
                return;
              }
              upload.run({ file, success: rfpMessages.termsUploaded });
            }}
          />
        </>
      )}
    </Box>
  );
};
