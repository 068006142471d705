import { useState } from 'react';
import { Button, Stack } from '@mui/material';
import type { Identifier } from 'react-admin';
import { DecisionDialog } from '../DecisionDialog';
import { ApproveTillDialog } from './ApproveTillDialog';
import type { ReviewStatus } from './types';
import { useItemAction } from './useItemAction';

export type ItemReviewButtonsProps = {
  baId: Identifier;
  /** The item's path under the BA: `documents/<docId>`, `bank-accounts/<id>`, `vertical-mapping`. */
  itemPath: string;
  /** Names the item in labels and dialogs ("PAN Card", "account 1234"). */
  itemName: string;
  reviewStatus: ReviewStatus | null;
  /** A document's approval carries an approved-till date; other items a plain confirmation. */
  approveWith: { kind: 'confirm' } | { kind: 'approvedTill'; required: boolean; initial: string | null };
  messages: { approved: string; rejected: string };
  /** data-testid suffix: approve-<testId>, reject-<testId>. */
  testId: string;
};

type Open = 'approve' | 'reject' | null;

/**
 * Approve / Reject of one item. Approve is not offered for an approved item, Reject not for a rejected one; a
 * reviewer who changes their mind uses the other. Rejecting needs remarks the BA will read.
 */
export const ItemReviewButtons = (props: ItemReviewButtonsProps) => {
  const { baId, itemPath, itemName, reviewStatus, approveWith, messages, testId } = props;
  const [open, setOpen] = useState<Open>(null);
  const action = useItemAction(baId, () => setOpen(null));
  const start = (which: Open) => {
    action.reset();
    setOpen(which);
  };
  return (
    <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
      {reviewStatus !== 'approved' && (
        <Button
          size="small"
          variant="outlined"
          color="success"
          aria-label={`Approve ${itemName}`}
          data-testid={`approve-${testId}`}
          onClick={() => start('approve')}
        >
          Approve
        </Button>
      )}
      {reviewStatus !== 'rejected' && (
        <Button
          size="small"
          variant="outlined"
          color="error"
          aria-label={`Reject ${itemName}`}
          data-testid={`reject-${testId}`}
          onClick={() => start('reject')}
        >
          Reject
        </Button>
      )}
      {approveWith.kind === 'approvedTill' ? (
        <ApproveTillDialog
          open={open === 'approve'}
          itemName={itemName}
          required={approveWith.required}
          initial={approveWith.initial}
          isPending={action.isPending}
          onCancel={() => setOpen(null)}
          onConfirm={(approvedTill) =>
            action.run({
              path: `${itemPath}/approve`,
              // No date for a document without a validity date: the field is left out rather than sent empty.
              body: approvedTill ? { approvedTill } : {},
              success: messages.approved,
            })
          }
        />
      ) : (
        <DecisionDialog
          open={open === 'approve'}
          title={`Approve ${itemName}`}
          text="The item is marked approved; the BA sees it as verified."
          confirmLabel="Approve"
          confirmColor="success"
          remarksRequired={false}
          isPending={action.isPending}
          onCancel={() => setOpen(null)}
          onConfirm={(remarks) =>
            action.run({ path: `${itemPath}/approve`, body: remarks ? { remarks } : {}, success: messages.approved })
          }
        />
      )}
      <DecisionDialog
        open={open === 'reject'}
        title={`Reject ${itemName}`}
        text="The business associate sees these remarks and corrects this item."
        confirmLabel="Reject"
        confirmColor="error"
        remarksRequired
        isPending={action.isPending}
        onCancel={() => setOpen(null)}
        onConfirm={(remarks) =>
          action.run({ path: `${itemPath}/reject`, body: { remarks }, success: messages.rejected })
        }
      />
    </Stack>
  );
};
