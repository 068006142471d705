import { useState } from 'react';
import { Box, Button, Chip, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { display, formatDate } from '../../../../domain/src/shared/format';
import { SectionCard } from '../../shared/SectionCard';
import type { BusinessAssociate } from '../../shared/types';
import { itemReviewOpen } from './access';
import { ConcessionUploadDialog } from './ConcessionUploadDialog';
import { FileViewButton } from './FileViewer';
import { ItemReviewButtons } from './ItemReviewButtons';
import { ReviewStatusChip } from './ReviewStatusChip';
import { SectionState } from './SectionState';
import { useBaItems } from './useBaItems';
import { stickyActionsCell } from './tableStyles';

/** The spec's "Concession document {action} successfully!!". */
export const CONCESSION_MESSAGES = {
  approved: 'Concession document approved successfully!!',
  rejected: 'Concession document rejected successfully!!',
};

/** Concessions / lower-deduction certificates: approve or reject each; staff may upload one for the BA. */
export const ConcessionsSection = ({
  record,
  canReview,
  canUpload,
}: {
  record: BusinessAssociate;
  canReview: boolean;
  canUpload: boolean;
}) => {
  const { data, isPending, error } = useBaItems(record.id, 'concessions');
  const [uploading, setUploading] = useState(false);
  const rows = data ?? [];
  const open = canReview && itemReviewOpen(record, 'concession');
  return (
    <SectionCard
      title="Concessions"
      action={
        canUpload && (
          <Button size="small" startIcon={<UploadFileIcon />} onClick={() => setUploading(true)}>
            Upload concession
          </Button>
        )
      }
    >
      <SectionState isPending={isPending} error={error} empty={rows.length === 0} emptyText="No concession." what="concessions">
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Concessions">
            <TableHead>
              <TableRow>
                <TableCell>Exemption no.</TableCell>
                <TableCell>Rate</TableCell>
                <TableCell>Valid</TableCell>
                <TableCell>Reason</TableCell>
                <TableCell>Threshold</TableCell>
                <TableCell>Withholding tax</TableCell>
                <TableCell>Section</TableCell>
                <TableCell>Certificate</TableCell>
                <TableCell>Review</TableCell>
                <TableCell align="right" sx={stickyActionsCell}>Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((c) => (
                <TableRow key={c.id} data-testid={`concession-${c.id}`}>
                  <TableCell>
                    {c.exemptionNumber}
                    {c.isInternalUpload && <Chip size="small" label="Uploaded by staff" sx={{ ml: 1 }} />}
                  </TableCell>
                  <TableCell>{c.exemptionRate}%</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {formatDate(c.exemptionFrom)} – {formatDate(c.exemptionTo)}
                  </TableCell>
                  <TableCell>{display(c.exemptionReason ?? c.exemptionReasonId)}</TableCell>
                  <TableCell>{c.exemptionThreshold}</TableCell>
                  <TableCell>
                    {c.withHoldingTaxType} / {c.withHoldingTaxCode}
                  </TableCell>
                  <TableCell>{c.sectionCode}</TableCell>
                  <TableCell>
                    <FileViewButton
                      baId={record.id}
                      filePath={`concessions/${encodeURIComponent(c.id)}/file`}
                      fileName={c.fileName}
                    />
                  </TableCell>
                  <TableCell>
                    <ReviewStatusChip status={c.reviewStatus} remarks={c.reviewRemarks} />
                  </TableCell>
                  <TableCell align="right" sx={stickyActionsCell}>
                    {open && (
                      <ItemReviewButtons
                        baId={record.id}
                        itemPath={`concessions/${encodeURIComponent(c.id)}`}
                        itemName={`concession ${c.exemptionNumber}`}
                        reviewStatus={c.reviewStatus}
                        approveWith={{ kind: 'confirm' }}
                        messages={CONCESSION_MESSAGES}
                        testId={`concession-${c.id}`}
                      />
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      </SectionState>
      {canUpload && (
        <ConcessionUploadDialog baId={record.id} open={uploading} onClose={() => setUploading(false)} />
      )}
    </SectionCard>
  );
};
