import { useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { display, formatDate } from '../../../domain/src/shared/format';
import type { DocumentRow, DocumentTypeOption, GstRegistrationRow } from '../api/onboarding';
import { ConfirmDialog } from '../shared/ConfirmDialog';
import { useFeedback } from '../shared/feedback';
import { useBa } from './BaContext';
import { DocumentUploadDialog, documentTexts, type UploadTarget } from './DocumentUploadDialog';
import { useFileViewer } from './FileViewer';
import { useItems, useMaster } from './ItemsContext';
import { ReviewStatusView, TabIntro, useFailure } from './itemFields';
import { NOT_REGISTERED } from './itemValidation';

/** One line of the documents tab: a document type (per GST state for GST documents) and what was uploaded. */
export type DocumentSlot = {
  key: string;
  type: DocumentTypeOption;
  mandatory: boolean;
  stateId: number | null;
  stateName: string | null;
  current: DocumentRow | null;
};

/**
 * The documents the master asks of this BA: every type once, GST documents once per registered GST state.
 * A type is mandatory when its mandatoryServiceIds include the BA's service (an empty list: never).
 */
export function documentSlots(
  types: readonly DocumentTypeOption[],
  serviceId: number | null,
  gstRows: readonly GstRegistrationRow[],
  documents: readonly DocumentRow[],
): DocumentSlot[] {
  const slots: DocumentSlot[] = [];
  for (const type of types) {
    const mandatory = serviceId !== null && type.mandatoryServiceIds.includes(serviceId);
    const find = (stateId: number | null) =>
      documents.find((d) => d.documentTypeId === type.id && (stateId === null || d.stateId === stateId)) ?? null;
    if (type.isGstDocument) {
      for (const row of gstRows.filter((g) => g.gstType !== NOT_REGISTERED))
        slots.push({
          key: `${type.id}-${row.stateId}`,
          type,
          mandatory,
          stateId: row.stateId,
          stateName: row.stateName,
          current: find(row.stateId),
        });
    } else slots.push({ key: String(type.id), type, mandatory, stateId: null, stateName: null, current: find(null) });
  }
  return slots;
}

/** Documents tab (spec 000 §3 "BA document"): mandatory ones marked *, upload, replace, delete, view. */
export function DocumentsTab() {
  const { ba } = useBa();
  const { lists, reload, api, editable, canChange } = useItems();
  const { notify, withLoading } = useFeedback();
  const failed = useFailure();
  const types = useMaster('documentTypes');
  const { view, viewer } = useFileViewer();
  const [target, setTarget] = useState<UploadTarget | null>(null);
  const [deleting, setDeleting] = useState<DocumentRow | null>(null);
  if (!types || !lists.documents || !lists.gstRegistrations) return null;
  const serviceId = ba.serviceId ?? ba.details?.serviceId ?? null;
  const slots = documentSlots(types, serviceId, lists.gstRegistrations, lists.documents);
  const gstTypesExist = types.some((t) => t.isGstDocument);
  const registeredRows = lists.gstRegistrations.filter((g) => g.gstType !== NOT_REGISTERED);

  const remove = async (doc: DocumentRow) => {
    setDeleting(null);
    try {
      const answer = await withLoading(() => api.deleteDocument(doc.id), 'Deleting');
      notify(answer.message ?? documentTexts.deleted);
      await reload('documents');
    } catch (e) {
      failed(e);
    }
  };

  return (
    <Stack spacing={2}>
      <TabIntro>
        Documents marked * are needed to submit. Files may be images (jpg, jpeg, png, gif), PDF, doc or docx.
        {gstTypesExist && registeredRows.length === 0 && ' GST documents appear here once you add a registered place of business.'}
      </TabIntro>
      {serviceId === null && (
        <Typography color="warning.main">Choose your service on the Company Details tab to see which documents are mandatory.</Typography>
      )}
      <Table size="small" aria-label="Documents">
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
          {slots.map((slot) => {
            const doc = slot.current;
            const changeable = canChange(doc?.reviewStatus);
            const label = `${slot.type.name}${slot.stateName ? ` (${slot.stateName})` : ''}`;
            return (
              <TableRow key={slot.key} data-testid={`document-${slot.key}`}>
                <TableCell>
                  {label}
                  {slot.mandatory && (
                    <Typography component="span" color="error" aria-label="mandatory" data-testid="mandatory-marker">
                      {' *'}
                    </Typography>
                  )}
                  {slot.type.needsValidityDate && (
                    <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                      Needs a validity date
                    </Typography>
                  )}
                </TableCell>
                <TableCell>
                  {doc ? (
                    <>
                      {doc.fileName}
                      <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                        {doc.documentNumber ? `No. ${doc.documentNumber} · ` : ''}Uploaded {formatDate(doc.uploadedAt)}
                      </Typography>
                    </>
                  ) : (
                    'Not uploaded'
                  )}
                </TableCell>
                <TableCell>
                  {display(doc?.validTill ? formatDate(doc.validTill) : null)}
                  {doc?.expired && (
                    <Typography variant="caption" color="error" sx={{ display: 'block' }}>
                      Expired
                    </Typography>
                  )}
                </TableCell>
                <TableCell>
                  <ReviewStatusView status={doc?.reviewStatus} remarks={doc?.reviewRemarks} />
                </TableCell>
                <TableCell align="right">
                  <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                    {doc && (
                      <Button size="small" aria-label={`View ${label}`} onClick={() => void view(label, doc.fileName, () => api.documentFile(doc.id))}>
                        View
                      </Button>
                    )}
                    {editable && changeable && (
                      <Button
                        size="small"
                        variant={doc ? 'text' : 'outlined'}
                        data-testid={`upload-${slot.key}`}
                        aria-label={`${doc ? 'Replace' : 'Upload'} ${label}`}
                        onClick={() =>
                          setTarget({
                            documentTypeId: slot.type.id,
                            name: slot.type.name,
                            kind: 'onboarding',
                            needsValidityDate: slot.type.needsValidityDate,
                            stateId: slot.stateId,
                            stateName: slot.stateName,
                            current: doc,
                          })
                        }
                      >
                        {doc ? 'Replace' : 'Upload'}
                      </Button>
                    )}
                    {doc && editable && changeable && (
                      <Button size="small" color="error" aria-label={`Delete ${label}`} onClick={() => setDeleting(doc)}>
                        Delete
                      </Button>
                    )}
                  </Stack>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {target && (
        <DocumentUploadDialog
          target={target}
          onClose={() => setTarget(null)}
          upload={(file, body) => api.uploadDocument(file, body)}
          onUploaded={async () => {
            setTarget(null);
            await reload('documents');
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this document?"
        confirmLabel="Delete"
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
      >
        {deleting ? `${deleting.documentTypeName} (${deleting.fileName}) will be removed.` : ''}
      </ConfirmDialog>
      {viewer}
    </Stack>
  );
}
