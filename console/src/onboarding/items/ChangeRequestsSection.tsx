import { Alert, Box, Chip, Stack, Typography } from '@mui/material';
import { display, formatDateTime } from '../../../../domain/src/shared/format';
import { SectionCard } from '../../shared/SectionCard';
import type { BusinessAssociate } from '../../shared/types';
import { fieldLabel } from '../labels';
import { ItemReviewButtons } from './ItemReviewButtons';
import { SectionState } from './SectionState';
import type { ChangeRequestRow } from './types';
import { useBaItems } from './useBaItems';

export const CHANGE_REQUEST_MESSAGES = {
  approved: 'Change request approved successfully',
  rejected: 'Change request rejected successfully',
};

const STATUS_LABELS: Record<ChangeRequestRow['status'], string> = {
  pending: 'Awaiting review',
  'first-approved': 'First approval given',
  approved: 'Approved',
  rejected: 'Rejected',
};

const isOpen = (r: ChangeRequestRow) => r.status === 'pending' || r.status === 'first-approved';

/** The changed fields, before → after, each flagged for the reviewer. */
const ChangedFields = ({ request }: { request: ChangeRequestRow }) => {
  const entries = Object.entries(request.changes ?? {});
  if (entries.length === 0) return <Typography variant="body2">No field differs from the profile.</Typography>;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2 }} aria-label="Changed fields">
      {entries.map(([field, { before, after }]) => (
        <li key={field} data-testid={`changed-${field}`}>
          <Typography variant="body2" component="span">
            <Chip size="small" color="warning" label="Changed" sx={{ mr: 1 }} />
            <strong>{fieldLabel(field)}</strong>: {display(before)} → {display(after)}
          </Typography>
        </li>
      ))}
    </Box>
  );
};

/**
 * A verified BA's profile change requests (Edit Profile). A company change needs one reviewer; a bank change
 * two different people (the second holding a stage-2 role) and holds the BA's payments until it is decided.
 */
export const ChangeRequestsSection = ({ record, canReview }: { record: BusinessAssociate; canReview: boolean }) => {
  const { data, isPending, error } = useBaItems(record.id, 'change-requests', record.status === 'verified');
  const rows = data ?? [];
  if (record.status !== 'verified') return null;
  return (
    <SectionCard title="Change requests">
      <SectionState isPending={isPending} error={error} empty={rows.length === 0} emptyText="No change request." what="change requests">
        <Stack spacing={2}>
          {rows.map((request) => (
            <Box
              key={request.id}
              data-testid={`change-request-${request.id}`}
              sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}
            >
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
                <Typography variant="subtitle2">
                  {request.section === 'bank' ? 'Bank account change' : 'Company details change'}
                </Typography>
                <Chip size="small" label={STATUS_LABELS[request.status] ?? request.status} />
                {request.raisedAt && (
                  <Typography variant="caption" color="text.secondary">
                    {formatDateTime(request.raisedAt)}
                  </Typography>
                )}
              </Stack>
              {request.section === 'bank' && isOpen(request) && (
                <Alert severity="warning" sx={{ mb: 1 }} data-testid="payments-on-hold">
                  Payments on hold until this change is decided.{' '}
                  {request.status === 'first-approved'
                    ? 'Needs a second approver (a different person with a stage-2 role).'
                    : 'Needs two approvers: this approval and a second approver with a stage-2 role.'}
                </Alert>
              )}
              <ChangedFields request={request} />
              {(request.approvals ?? []).length > 0 && (
                <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
                  Approved by:{' '}
                  {(request.approvals ?? []).map((a) => `${a.name ?? a.by} (${a.role})`).join(', ')}
                </Typography>
              )}
              {request.remarks && (
                <Typography variant="body2" sx={{ mt: 1, whiteSpace: 'pre-wrap' }}>
                  Remarks: {request.remarks}
                </Typography>
              )}
              {canReview && isOpen(request) && (
                <Box sx={{ mt: 1 }}>
                  <ItemReviewButtons
                    baId={record.id}
                    itemPath={`change-requests/${encodeURIComponent(request.id)}`}
                    itemName={request.section === 'bank' ? 'bank account change' : 'company details change'}
                    reviewStatus={null}
                    approveWith={{ kind: 'confirm' }}
                    messages={CHANGE_REQUEST_MESSAGES}
                    testId={`change-request-${request.id}`}
                  />
                </Box>
              )}
            </Box>
          ))}
        </Stack>
      </SectionState>
    </SectionCard>
  );
};
