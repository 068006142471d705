import { Box, Card, CardContent, Stack, Typography } from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { CreateButton, DataTable, List, Pagination, TopToolbar } from 'react-admin';
import { formatDate } from '../../../domain/src/shared/format';
import { FileTypeIcon, fileKindOf, formatFileSize } from '../../../ui/src/FileTypeIcon';
import { listSx, tableSx } from '../onboarding/BusinessAssociateList';
import { ReplaceAnnexureButton } from './ReplaceAnnexureButton';
import type { AnnexureRow } from './types';
import { WithdrawAnnexureButton } from './WithdrawAnnexureButton';

export const ANNEXURES_PER_PAGE = 25;

const UploadButton = () => <CreateButton label="Upload" icon={<UploadFileIcon />} />;

const ListActions = () => (
  <TopToolbar>
    <UploadButton />
  </TopToolbar>
);

const Empty = () => (
  <Card sx={{ mt: 2 }}>
    <CardContent>
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Typography variant="h6" component="p">
          No PO annexures yet
        </Typography>
        <Typography color="text.secondary">
          Upload the PO policy documents BAs should read: each one shows as a card on their PO Annexures page.
        </Typography>
        <UploadButton />
      </Stack>
    </CardContent>
  </Card>
);

const FileCell = ({ annexure }: { annexure: AnnexureRow }) => (
  <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
    <FileTypeIcon kind={fileKindOf(annexure)} fontSize="small" />
    <span>{annexure.fileName}</span>
  </Box>
);

const Column = DataTable.Col<AnnexureRow>;

/**
 * The PO annexures BAs see (spec 001 §2 "PO Annexures"), for MLL-ADMIN and MDM: title, file with its type
 * icon, size and the day it last changed (DD-MMM-YYYY); each row can be replaced or withdrawn.
 */
export const AnnexureList = () => (
  <List
    title="PO Annexures"
    actions={<ListActions />}
    perPage={ANNEXURES_PER_PAGE}
    // The order BAs see the cards in (the API's default).
    sort={{ field: 'uploadedAt', order: 'ASC' }}
    pagination={<Pagination rowsPerPageOptions={[10, 25, 50, 100]} />}
    exporter={false}
    empty={<Empty />}
    sx={listSx}
  >
    <DataTable rowClick={false} bulkActionButtons={false} sx={tableSx}>
      <Column source="title" label="Title" />
      <Column source="fileName" label="File" disableSort render={(a) => <FileCell annexure={a} />} />
      <Column source="size" label="Size" render={(a) => formatFileSize(a.size)} />
      <Column source="updatedAt" label="Updated" render={(a) => formatDate(a.updatedAt)} />
      <Column
        label="Actions"
        disableSort
        render={(a) => (
          <Box sx={{ display: 'flex', gap: 1 }}>
            <ReplaceAnnexureButton annexure={a} />
            <WithdrawAnnexureButton annexure={a} />
          </Box>
        )}
      />
    </DataTable>
  </List>
);
