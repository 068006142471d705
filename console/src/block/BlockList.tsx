import { useRef, useState } from 'react';
import {
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
  Typography,
} from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import { useMutation } from '@tanstack/react-query';
import {
  DataTable,
  List,
  Pagination,
  SelectInput,
  useGetIdentity,
  useNotify,
  usePermissions,
  useRecordContext,
  useRefresh,
} from 'react-admin';
import { v4 as uuidv4 } from 'uuid';
import { formatDate, formatDateTime } from '../../../domain/src/shared/format';
import { blockMessages } from '../../../domain/src/block/decide';
import { errorText } from '../providers/httpClient';
import { useSaveDownload } from '../shared/useSaveDownload';
import { mayApproveBlock } from '../vendor-code/access';
import type { BlockRow, BlockStatus } from '../vendor-code/types';
import { approveBlock, BLOCK_MESSAGES, fetchBlockFile, rejectBlock } from './api';

export const BLOCK_STATUS_LABELS: Record<BlockStatus, string> = {
  pending: 'Pending approval',
  approved: 'Approved, waiting for ERP',
  applied: 'Applied',
  rejected: 'Rejected',
  refused: 'Refused by ERP',
  ended: 'Ended',
};

export const REMARKS_REQUIRED = blockMessages.remarks;
/** Shown instead of the decision buttons to whoever asked for the block (a second person decides). */
export const OWN_REQUEST_TEXT = 'Awaiting another approver';

const STATUS_CHOICES = (Object.keys(BLOCK_STATUS_LABELS) as BlockStatus[]).map((id) => ({ id, name: BLOCK_STATUS_LABELS[id] }));

const filters = [<SelectInput key="status" source="status" label="Status" choices={STATUS_CHOICES} alwaysOn emptyText="All" />];

function useDecision(run: (key: string) => Promise<{ message?: string }>, fallback: string, done: () => void) {
  const notify = useNotify();
  const refresh = useRefresh();
  const key = useRef<string | null>(null);
  return useMutation({
    mutationFn: () => {
      key.current ??= uuidv4();
      return run(key.current);
    },
    onSuccess: (answer) => {
      key.current = null;
      notify(answer?.message || fallback, { type: 'success' });
      done();
      refresh();
    },
    onError: (error) => {
      const status = (error as { status?: number }).status;
      if (status) key.current = null;
      notify(errorText(error), { type: 'error' });
      if (status === 409 || status === 422) {
        done();
        refresh();
      }
    },
  });
}

const ApproveDialog = ({ row, open, onClose }: { row: BlockRow; open: boolean; onClose: () => void }) => {
  const fallback = row.action === 'block' ? BLOCK_MESSAGES.blocked : BLOCK_MESSAGES.unblocked;
  const decide = useDecision((key) => approveBlock(row.id, key), fallback, onClose);
  return (
    <Dialog open={open} onClose={decide.isPending ? undefined : onClose} aria-labelledby={`approve-${row.id}`}>
      <DialogTitle id={`approve-${row.id}`}>Approve the {row.action} request?</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {row.companyName ?? row.pan} — vendor code {row.vendorCode ?? 'NA'} ({row.scope}, company code {row.companyCode}).
          Once approved, it is applied in the ERP.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={decide.isPending}>
          Cancel
        </Button>
        <Button variant="contained" onClick={() => decide.mutate()} disabled={decide.isPending}>
          Approve
        </Button>
      </DialogActions>
    </Dialog>
  );
};

const RejectDialog = ({ row, open, onClose }: { row: BlockRow; open: boolean; onClose: () => void }) => {
  const [remarks, setRemarks] = useState('');
  const [touched, setTouched] = useState(false);
  const decide = useDecision((key) => rejectBlock(row.id, remarks.trim(), key), BLOCK_MESSAGES.rejected, onClose);
  const missing = touched && !remarks.trim();
  return (
    <Dialog
      open={open}
      onClose={decide.isPending ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby={`reject-${row.id}`}
      slotProps={{ transition: { onEnter: () => (setRemarks(''), setTouched(false)) } }}
    >
      <DialogTitle id={`reject-${row.id}`}>Reject the {row.action} request</DialogTitle>
      <DialogContent>
        <TextField
          label="Remarks"
          required
          fullWidth
          multiline
          minRows={2}
          value={remarks}
          onChange={(e) => setRemarks(e.target.value)}
          error={missing}
          helperText={missing ? REMARKS_REQUIRED : ' '}
          sx={{ mt: 1 }}
          slotProps={{ htmlInput: { maxLength: 260 } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={decide.isPending}>
          Cancel
        </Button>
        <Button
          variant="contained"
          color="error"
          disabled={decide.isPending}
          onClick={() => {
            setTouched(true);
            if (remarks.trim()) decide.mutate();
          }}
        >
          Reject
        </Button>
      </DialogActions>
    </Dialog>
  );
};

/** Approve / Reject for a block approver, on a pending request somebody else made. */
const DecisionCell = () => {
  const row = useRecordContext<BlockRow>();
  const { permissions } = usePermissions<string[]>();
  const { identity } = useGetIdentity();
  const [open, setOpen] = useState<'approve' | 'reject' | null>(null);
  if (!row || row.status !== 'pending') return null;
  if (identity && row.requestedBy?.userId === identity.id) {
    return (
      <Typography variant="body2" color="text.secondary">
        {OWN_REQUEST_TEXT}
      </Typography>
    );
  }
  if (!mayApproveBlock(permissions)) return null;
  return (
    <Box sx={{ display: 'flex', gap: 1 }} onClick={(e) => e.stopPropagation()}>
      <Button size="small" variant="contained" onClick={() => setOpen('approve')}>
        Approve
      </Button>
      <Button size="small" color="error" onClick={() => setOpen('reject')}>
        Reject
      </Button>
      <ApproveDialog row={row} open={open === 'approve'} onClose={() => setOpen(null)} />
      <RejectDialog row={row} open={open === 'reject'} onClose={() => setOpen(null)} />
    </Box>
  );
};

const AttachmentCell = () => {
  const row = useRecordContext<BlockRow>();
  const saveDownload = useSaveDownload();
  if (!row?.fileName) return null;
  return (
    <Button
      size="small"
      startIcon={<AttachFileIcon />}
      title={row.fileName}
      sx={{ maxWidth: 140, justifyContent: 'flex-start', '& .label': { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } }}
      onClick={(e) => {
        e.stopPropagation();
        void saveDownload(fetchBlockFile(row));
      }}
    >
      <span className="label">{row.fileName}</span>
    </Button>
  );
};

/**
 * What was asked (block or unblock), when, and by whom: one cell, so the queue fits a 1366 px screen beside the
 * sidebar with its decision buttons in view.
 */
const RequestedCell = () => {
  const row = useRecordContext<BlockRow>();
  if (!row) return null;
  return (
    <Box sx={{ whiteSpace: 'nowrap' }}>
      <Typography variant="body2" sx={{ fontWeight: 500 }}>
        {row.action === 'block' ? 'Block' : 'Unblock'}
      </Typography>
      <Typography variant="body2">{formatDateTime(row.requestedAt)}</Typography>
      <Typography variant="caption" color="text.secondary">
        {row.requestedBy?.name ?? row.requestedBy?.userId}
      </Typography>
    </Box>
  );
};

/** The vendor's name, then its code (parent or child) and company code. */
const VendorCell = () => {
  const row = useRecordContext<BlockRow>();
  if (!row) return null;
  return (
    <Box sx={{ minWidth: 140 }}>
      <Typography variant="body2">{row.companyName ?? row.pan ?? 'NA'}</Typography>
      <Typography variant="caption" color="text.secondary" component="div">
        <span>{`${row.vendorCode ?? 'NA'} (${row.scope})`}</span> · company code {row.companyCode}
      </Typography>
    </Box>
  );
};

/**
 * The reason, the requester's comments (two lines, the whole text on hover) and the end date when one was set:
 * comments of up to 260 characters made rows tall and pushed Status and Decision off a laptop screen.
 */
const ReasonCell = () => {
  const row = useRecordContext<BlockRow>();
  if (!row) return null;
  return (
    <Box sx={{ minWidth: 160, maxWidth: 280 }}>
      <Typography variant="body2">{row.reason}</Typography>
      {row.comments && (
        <Typography
          variant="caption"
          color="text.secondary"
          title={row.comments}
          sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}
        >
          {row.comments}
        </Typography>
      )}
      {row.endDate && (
        <Typography variant="caption" component="div">
          Until {formatDate(row.endDate)}
        </Typography>
      )}
    </Box>
  );
};

const StatusCell = () => {
  const row = useRecordContext<BlockRow>();
  if (!row) return null;
  const color = row.status === 'applied' ? 'success' : row.status === 'rejected' || row.status === 'refused' ? 'error' : row.status === 'pending' ? 'warning' : 'default';
  return (
    <Box>
      <Chip size="small" color={color} label={BLOCK_STATUS_LABELS[row.status] ?? row.status} />
      {row.lastErpError && (
        <Typography variant="caption" color="error" component="div">
          Waiting for ERP: {row.lastErpError}
        </Typography>
      )}
    </Box>
  );
};

/**
 * /sap/blocks: the block and unblock requests (GET /api/blocks), pending ones first by default. A block approver
 * (MLL Accounts_HEAD, MLL Legal, MLL-ADMIN) approves — the request is then applied in the ERP, "Successfully
 * Blocked" / "Successfully Unblocked" — or rejects with remarks; never their own request.
 */
export const BlockList = () => (
  <List
    resource="blocks"
    storeKey="sap-blocks"
    title="Block Requests"
    filters={filters}
    filterDefaultValues={{ status: 'pending' }}
    perPage={10}
    sort={{ field: 'requestedAt', order: 'DESC' }}
    pagination={<Pagination rowsPerPageOptions={[5, 10, 20]} />}
    disableSyncWithLocation
    empty={false}
  >
    <DataTable bulkActionButtons={false} rowClick={false}>
      <DataTable.Col source="requestedAt" label="Request">
        <RequestedCell />
      </DataTable.Col>
      <DataTable.Col source="vendorCode" label="Vendor">
        <VendorCell />
      </DataTable.Col>
      <DataTable.Col source="reason" label="Reason" disableSort>
        <ReasonCell />
      </DataTable.Col>
      <DataTable.Col label="Attachment" disableSort>
        <AttachmentCell />
      </DataTable.Col>
      <DataTable.Col source="status" label="Status">
        <StatusCell />
      </DataTable.Col>
      <DataTable.Col label="Decision" disableSort>
        <DecisionCell />
      </DataTable.Col>
    </DataTable>
  </List>
);
