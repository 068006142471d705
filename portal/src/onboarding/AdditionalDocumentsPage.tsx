import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { display, formatDate } from '../../../domain/src/shared/format';
import { useApi } from '../api/ApiContext';
import { onboardingApi, onboardingMasters, type DocumentRow } from '../api/onboarding';
import { useBa } from './BaContext';
import { DocumentUploadDialog, type UploadTarget } from './DocumentUploadDialog';
import { useFileViewer } from './FileViewer';
import { ReviewStatusView, useLoaded } from './itemFields';

/** Spec 000 §2 onboarding routes: the BA's Additional Documents page. */
export const ADDITIONAL_DOCS_PATH = '/onboard/BA/AdditionalDocs';

/**
 * Additional Documents (spec 000 §1 "upload additional documents", §2 header): once verified, a BA uploads
 * the documents of the additional-documents master; staff verify them on their queue. Each type shows its
 * latest upload with the review and, when rejected, why.
 */
export function AdditionalDocumentsPage() {
  const client = useApi();
  const { ba } = useBa();
  const api = useMemo(() => onboardingApi(client, ba.id), [client, ba.id]);
  const masters = useMemo(() => onboardingMasters(client), [client]);
  const [types] = useLoaded(() => masters.additionalDocumentTypes(), 'additional-types');
  const [documents, reload] = useLoaded(() => api.documents('additional'), `additional-${ba.id}`);
  const { view, viewer } = useFileViewer();
  const [target, setTarget] = useState<UploadTarget | null>(null);
  const verified = ba.status === 'verified';

  return (
    <Stack spacing={3}>
      <Typography variant="h5" component="h1">
        Additional Documents
      </Typography>
      {!verified && (
        <Alert severity="info">Additional documents can be uploaded once your organisation has been verified.</Alert>
      )}
      <Card>
        <CardContent>
          {types && documents && (
            <Table size="small" aria-label="Additional documents">
              <TableHead>
                <TableRow>
                  <TableCell>Document</TableCell>
                  <TableCell>Uploaded file</TableCell>
                  <TableCell>Valid till</TableCell>
                  <TableCell>Review</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {types.map((type) => {
                  const doc: DocumentRow | null = documents.find((d) => d.documentTypeId === type.id) ?? null;
                  return (
                    <TableRow key={type.id} data-testid={`additional-${type.id}`}>
                      <TableCell>
                        {type.name}
                        {type.needsValidityDate && (
                          <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                            Needs a validity date
                          </Typography>
                        )}
                      </TableCell>
                      <TableCell>{doc ? `${doc.fileName} (${formatDate(doc.uploadedAt)})` : 'Not uploaded'}</TableCell>
                      <TableCell>{display(doc?.validTill ? formatDate(doc.validTill) : null)}</TableCell>
                      <TableCell>
                        <ReviewStatusView status={doc?.reviewStatus} remarks={doc?.reviewRemarks} />
                      </TableCell>
                      <TableCell align="right">
                        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                          {doc && (
                            <Button
                              size="small"
                              aria-label={`View ${type.name}`}
                              onClick={() => void view(type.name, doc.fileName, () => api.documentFile(doc.id))}
                            >
                              View
                            </Button>
                          )}
                          {verified && doc?.reviewStatus !== 'approved' && (
                            <Button
                              size="small"
                              variant={doc ? 'text' : 'outlined'}
                              data-testid={`upload-additional-${type.id}`}
                              aria-label={`${doc ? 'Replace' : 'Upload'} ${type.name}`}
                              onClick={() =>
                                setTarget({
                                  documentTypeId: type.id,
                                  name: type.name,
                                  kind: 'additional',
                                  needsValidityDate: type.needsValidityDate,
                                  stateId: null,
                                  stateName: null,
                                  current: doc,
                                })
                              }
                            >
                              {doc ? 'Replace' : 'Upload'}
                            </Button>
                          )}
                        </Stack>
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
      {target && (
        <DocumentUploadDialog
          target={target}
          onClose={() => setTarget(null)}
          upload={(file, body) => api.uploadDocument(file, { ...body, kind: 'additional' })}
          onUploaded={async () => {
            setTarget(null);
            await reload();
          }}
        />
      )}
      {viewer}
    </Stack>
  );
}
