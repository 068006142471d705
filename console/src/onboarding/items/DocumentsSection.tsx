import { Box, Button, Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { Link } from 'react-router-dom';
import { display, formatDate, formatDateTime } from '../../../../domain/src/shared/format';
import { SectionCard } from '../../shared/SectionCard';
import type { BusinessAssociate } from '../../shared/types';
import { itemReviewOpen } from './access';
import { FileViewButton } from './FileViewer';
import { ItemReviewButtons } from './ItemReviewButtons';
import { ReviewStatusChip } from './ReviewStatusChip';
import { SectionState } from './SectionState';
import type { DocumentRow } from './types';
import { useBaItems } from './useBaItems';
import { stickyActionsCell } from './tableStyles';

/** The spec's snackbars (spec 000 §8 "Success messages"). */
export const DOCUMENT_MESSAGES = {
  approved: 'Document Approved successfully',
  rejected: 'Document Rejected successfully',
};

export const documentName = (doc: Pick<DocumentRow, 'documentTypeName' | 'stateName'>) =>
  doc.stateName ? `${doc.documentTypeName} (${doc.stateName})` : doc.documentTypeName;

/** The review controls of one document, shared by the BA page, View All Documents and the queue. */
export const DocumentReview = ({ baId, doc }: { baId: string; doc: DocumentRow }) => (
  <ItemReviewButtons
    baId={baId}
    itemPath={`documents/${encodeURIComponent(doc.id)}`}
    itemName={documentName(doc)}
    reviewStatus={doc.reviewStatus}
    approveWith={{ kind: 'approvedTill', required: doc.validTill !== null, initial: doc.validTill }}
    messages={DOCUMENT_MESSAGES}
    testId={`document-${doc.id}`}
  />
);

/** Review status plus the "expired" flag of an approved document whose approved-till date has passed. */
export const DocumentStatus = ({ doc }: { doc: DocumentRow }) => (
  <Stack direction="row" spacing={0.5}>
    <ReviewStatusChip status={doc.reviewStatus} remarks={doc.reviewRemarks} />
    {doc.expired && <Chip size="small" color="error" label="Expired" data-testid="document-expired" />}
  </Stack>
);

/**
 * The BA's documents (onboarding and, once verified, additional): each viewable inline and approved with an
 * "approved till" date (required when it has a validity date, prefilled with it) or rejected with remarks.
 */
export const DocumentsSection = ({ record, canReview }: { record: BusinessAssociate; canReview: boolean }) => {
  const { data, isPending, error } = useBaItems(record.id, 'documents');
  const rows = data ?? [];
  return (
    <SectionCard
      title="Documents"
      action={
        <Button component={Link} to={`/view-all-documents/${encodeURIComponent(record.id)}`} size="small">
          View all documents
        </Button>
      }
    >
      <SectionState isPending={isPending} error={error} empty={rows.length === 0} emptyText="No document uploaded yet." what="documents">
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Documents">
            <TableHead>
              <TableRow>
                <TableCell>Document</TableCell>
                <TableCell>Kind</TableCell>
                <TableCell>Number</TableCell>
                <TableCell>Valid till</TableCell>
                <TableCell>Uploaded</TableCell>
                <TableCell>File</TableCell>
                <TableCell>Review</TableCell>
                <TableCell>Approved till</TableCell>
                <TableCell align="right" sx={stickyActionsCell}>Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((doc) => {
                const open =
                  canReview && itemReviewOpen(record, doc.kind === 'additional' ? 'additional-document' : 'document');
                return (
                  <TableRow key={doc.id} data-testid={`document-${doc.id}`}>
                    <TableCell>{documentName(doc)}</TableCell>
                    <TableCell>{doc.kind === 'additional' ? 'Additional' : 'Onboarding'}</TableCell>
                    <TableCell>{display(doc.documentNumber)}</TableCell>
                    <TableCell>{formatDate(doc.validTill)}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(doc.uploadedAt)}</TableCell>
                    <TableCell>
                      <FileViewButton
                        baId={record.id}
                        filePath={`documents/${encodeURIComponent(doc.id)}/file`}
                        fileName={doc.fileName}
                      />
                    </TableCell>
                    <TableCell>
                      <DocumentStatus doc={doc} />
                    </TableCell>
                    <TableCell>{formatDate(doc.approvedTill)}</TableCell>
                    <TableCell align="right" sx={stickyActionsCell}>{open && <DocumentReview baId={record.id} doc={doc} />}</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Box>
      </SectionState>
    </SectionCard>
  );
};
