import { Box, Button, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Title, useGetOne } from 'react-admin';
import { Link, useParams } from 'react-router-dom';
import { display, formatDate, formatDateTime } from '../../../domain/src/shared/format';
import { SectionCard } from '../shared/SectionCard';
import type { BusinessAssociate } from '../shared/types';
import { baLabel } from './baName';
import { DocumentStatus, documentName } from './items/DocumentsSection';
import { FileViewButton } from './items/FileViewer';
import { ReviewStatusChip } from './items/ReviewStatusChip';
import { SectionState } from './items/SectionState';
import type { DocumentRow } from './items/types';
import { useBaItems } from './items/useBaItems';

export const VIEW_ALL_DOCUMENTS_PATH = '/view-all-documents/:baId';

const DocumentTable = ({ baId, rows, label }: { baId: string; rows: DocumentRow[]; label: string }) => (
  <Box sx={{ overflowX: 'auto' }}>
    <Table size="small" aria-label={label}>
      <TableHead>
        <TableRow>
          <TableCell>Document</TableCell>
          <TableCell>Number</TableCell>
          <TableCell>Valid till</TableCell>
          <TableCell>Uploaded</TableCell>
          <TableCell>File</TableCell>
          <TableCell>Review</TableCell>
          <TableCell>Approved till</TableCell>
          <TableCell>Remarks</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((doc) => (
          <TableRow key={doc.id}>
            <TableCell>{documentName(doc)}</TableCell>
            <TableCell>{display(doc.documentNumber)}</TableCell>
            <TableCell>{formatDate(doc.validTill)}</TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(doc.uploadedAt)}</TableCell>
            <TableCell>
              <FileViewButton baId={baId} filePath={`documents/${encodeURIComponent(doc.id)}/file`} fileName={doc.fileName} />
            </TableCell>
            <TableCell>
              <DocumentStatus doc={doc} />
            </TableCell>
            <TableCell>{formatDate(doc.approvedTill)}</TableCell>
            <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{doc.reviewRemarks ?? '—'}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  </Box>
);

/**
 * View All Documents (spec 000 §2 /view-all-documents/:baId): every file of the BA in one place, the
 * onboarding documents, the additional documents and the concession certificates, each with a view link and
 * its review status. Reviewing happens on the BA page and the additional-documents queue.
 */
export const ViewAllDocuments = () => {
  const { baId = '' } = useParams<{ baId: string }>();
  const ba = useGetOne<BusinessAssociate>('business-associates', { id: baId }, { enabled: baId !== '' });
  const documents = useBaItems(baId, 'documents', baId !== '');
  const concessions = useBaItems(baId, 'concessions', baId !== '');
  const docs = documents.data ?? [];
  const onboarding = docs.filter((d) => d.kind !== 'additional');
  const additional = docs.filter((d) => d.kind === 'additional');
  const certificates = concessions.data ?? [];
  const name = ba.data ? baLabel(ba.data, 'Business associate') : 'Business associate';
  return (
    <Box sx={{ p: 2, display: 'grid', gap: 2 }}>
      <Title title={`All documents – ${name}`} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
        <Button component={Link} to={`/business-associates/${encodeURIComponent(baId)}/show`} startIcon={<ArrowBackIcon />}>
          Back to the BA
        </Button>
        <Typography variant="h6" component="h1">
          All documents of {name}
        </Typography>
      </Box>
      <SectionCard title="Onboarding documents">
        <SectionState isPending={documents.isPending} error={documents.error} empty={onboarding.length === 0} emptyText="No onboarding document." what="documents">
          <DocumentTable baId={baId} rows={onboarding} label="Onboarding documents" />
        </SectionState>
      </SectionCard>
      <SectionCard title="Additional documents">
        <SectionState isPending={documents.isPending} error={documents.error} empty={additional.length === 0} emptyText="No additional document." what="documents">
          <DocumentTable baId={baId} rows={additional} label="Additional documents" />
        </SectionState>
      </SectionCard>
      <SectionCard title="Concession certificates">
        <SectionState isPending={concessions.isPending} error={concessions.error} empty={certificates.length === 0} emptyText="No concession certificate." what="concessions">
          <Table size="small" aria-label="Concession certificates">
            <TableHead>
              <TableRow>
                <TableCell>Exemption no.</TableCell>
                <TableCell>Valid</TableCell>
                <TableCell>File</TableCell>
                <TableCell>Review</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {certificates.map((c) => (
                <TableRow key={c.id}>
                  <TableCell>{c.exemptionNumber}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {formatDate(c.exemptionFrom)} – {formatDate(c.exemptionTo)}
                  </TableCell>
                  <TableCell>
                    <FileViewButton baId={baId} filePath={`concessions/${encodeURIComponent(c.id)}/file`} fileName={c.fileName} />
                  </TableCell>
                  <TableCell>
                    <ReviewStatusChip status={c.reviewStatus} remarks={c.reviewRemarks} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </SectionState>
      </SectionCard>
    </Box>
  );
};
