import { Link as MuiLink } from '@mui/material';
import { DataTable, List, Pagination, SelectInput, usePermissions } from 'react-admin';
import { Link } from 'react-router-dom';
import { display, formatDate, formatDateTime } from '../../../../domain/src/shared/format';
import { DEFAULT_ROWS_PER_PAGE, listSx, ROWS_PER_PAGE_OPTIONS, tableSx } from '../BusinessAssociateList';
import { mayReviewItems } from '../items/access';
import { DocumentReview, DocumentStatus, documentName } from '../items/DocumentsSection';
import { FileViewButton } from '../items/FileViewer';
import { REVIEW_STATUS_LABELS } from '../items/review';
import type { DocumentRow } from '../items/types';

type QueueRow = DocumentRow & { companyName?: string | null };

const filters = [
  <SelectInput
    key="reviewStatus"
    source="reviewStatus"
    label="Review status"
    alwaysOn
    choices={Object.entries(REVIEW_STATUS_LABELS).map(([id, name]) => ({ id, name }))}
  />,
];

const Column = DataTable.Col<QueueRow>;

/**
 * The staff queue of additional documents (spec 000 §2 /onboard/MLL/verifyadditionalDoc): what verified BAs
 * uploaded after onboarding, pending first (the API's order), within the caller's company codes. Each row is
 * viewed inline and approved with an approved-till date or rejected with remarks, right in the list.
 */
export const AdditionalDocumentList = () => {
  const { permissions } = usePermissions<string[]>();
  const canReview = mayReviewItems(permissions);
  return (
    <List
      title="Additional Documents"
      filters={filters}
      sort={{ field: 'uploadedAt', order: 'DESC' }}
      perPage={DEFAULT_ROWS_PER_PAGE}
      pagination={<Pagination rowsPerPageOptions={ROWS_PER_PAGE_OPTIONS} />}
      exporter={false}
      empty={false}
      sx={listSx}
    >
      <DataTable rowClick={false} bulkActionButtons={false} sx={tableSx}>
        <Column
          source="companyName"
          label="Business associate"
          render={(r) => (
            <MuiLink component={Link} to={`/business-associates/${encodeURIComponent(r.baId)}/show`}>
              {r.companyName ?? r.baId}
            </MuiLink>
          )}
        />
        <Column source="documentTypeName" label="Document" render={(r) => documentName(r)} />
        <Column source="documentNumber" label="Number" render={(r) => display(r.documentNumber)} />
        <Column source="validTill" label="Valid till" render={(r) => formatDate(r.validTill)} />
        <Column source="uploadedAt" label="Uploaded" render={(r) => formatDateTime(r.uploadedAt)} />
        <Column
          label="File"
          disableSort
          render={(r) => (
            <FileViewButton baId={r.baId} filePath={`documents/${encodeURIComponent(r.id)}/file`} fileName={r.fileName} />
          )}
        />
        <Column source="reviewStatus" label="Review" render={(r) => <DocumentStatus doc={r} />} />
        <Column source="approvedTill" label="Approved till" render={(r) => formatDate(r.approvedTill)} />
        {canReview && (
          <Column label="Actions" disableSort render={(r) => <DocumentReview baId={r.baId} doc={r} />} />
        )}
      </DataTable>
    </List>
  );
};
