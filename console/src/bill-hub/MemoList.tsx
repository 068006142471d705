import { Typography } from '@mui/material';
import { DataTable, List, Pagination, TextInput } from 'react-admin';
import { formatDate, formatInr } from '../../../domain/src/shared/format';
import { MEMOS_RESOURCE } from './api';
import { BILL_HUB_TEXTS, stateText } from './labels';
import type { MemoRow } from './types';

const filters = [
  <TextInput key="q" source="q" label="Memo number" alwaysOn resettable />,
  <TextInput key="baId" source="baId" label="BA id" alwaysOn resettable />,
];

const NoMemos = () => (
  <Typography variant="body2" sx={{ p: 2 }}>
    {BILL_HUB_TEXTS.noMemos}
  </Typography>
);

/** The staff memo list (GET /api/memos, simple-rest, the user's company codes), newest first. */
export const MemoList = () => (
  <List
    resource={MEMOS_RESOURCE}
    title="Memos"
    filters={filters}
    perPage={25}
    sort={{ field: 'submittedAt', order: 'DESC' }}
    pagination={<Pagination rowsPerPageOptions={[10, 25, 50, 100]} />}
    exporter={false}
    empty={false}
    sx={{ '& .RaList-content': { overflowX: 'auto' } }}
  >
    <DataTable rowClick="show" bulkActionButtons={false} empty={<NoMemos />}>
      <DataTable.Col source="memoNumber" label="Memo number" />
      <DataTable.Col source="baName" label="BA" disableSort render={(r: MemoRow) => r.baName ?? 'NA'} />
      <DataTable.Col
        label="From → to"
        disableSort
        render={(r: MemoRow) => `${stateText(r.fromStateName, r.fromStateId)} → ${stateText(r.toStateName, r.toStateId)}`}
      />
      <DataTable.Col source="invoiceCount" label="Invoices" disableSort />
      <DataTable.Col source="totalAmount" label="Total" disableSort render={(r: MemoRow) => formatInr(r.totalAmount)} />
      <DataTable.Col source="advanceAmount" label="Advance" disableSort render={(r: MemoRow) => formatInr(r.advanceAmount)} />
      <DataTable.Col source="balance" label="Balance" disableSort render={(r: MemoRow) => formatInr(r.balance)} />
      <DataTable.Col source="submittedAt" label="Submitted" render={(r: MemoRow) => formatDate(r.submittedAt)} />
    </DataTable>
  </List>
);
