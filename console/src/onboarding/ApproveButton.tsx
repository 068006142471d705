import { useState } from 'react';
import { Button, Tooltip } from '@mui/material';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import { useGetIdentity, usePermissions, useRecordContext } from 'react-admin';
import type { BusinessAssociate } from '../shared/types';
import { baLabel } from './baName';
import { decidableStage, useDecision } from './decision';
import { DecisionDialog } from './DecisionDialog';
import { useStageOneBlocker } from './items/useStageOneBlocker';
import { stageOneApprover } from './timeline';
import { useActivityLog } from './useActivityLog';

/** The API refuses this too (422); saying so up front spares the reviewer a failed attempt. */
export const SAME_APPROVER_HINT =
  'You approved stage 1 of this submission: another reviewer must approve stage 2';

/** Approves the BA's current review stage; rendered only for a role that decides that stage. */
export const ApproveButton = () => {
  const record = useRecordContext<BusinessAssociate>();
  const { permissions } = usePermissions<string[]>();
  const stage = decidableStage(record, permissions);
  if (!record || stage === null) return null;
  return <ApproveAction record={record} stage={stage} />;
};

const ApproveAction = ({ record, stage }: { record: BusinessAssociate; stage: 1 | 2 }) => {
  const [open, setOpen] = useState(false);
  const decision = useDecision(record, 'approve', () => setOpen(false));
  const { identity } = useGetIdentity();
  const { data: log } = useActivityLog(record.id);
  const approvedStageOne =
    stage === 2 && identity?.id !== undefined && stageOneApprover(log ?? []) === identity.id;
  const itemsBlock = useStageOneBlocker(record.id, stage === 1);
  const hint = approvedStageOne ? SAME_APPROVER_HINT : itemsBlock;
  const name = baLabel(record, 'this business associate');
  const button = (
    <Button
      variant="contained"
      color="success"
      startIcon={<CheckCircleIcon />}
      disabled={hint !== null}
      data-testid="approve-stage"
      onClick={() => {
        decision.reset();
        setOpen(true);
      }}
    >
      Approve stage {stage}
    </Button>
  );
  return (
    <>
      {hint !== null ? (
        <Tooltip title={hint}>
          {/* a span, because a disabled button fires no events for the tooltip */}
          <span>{button}</span>
        </Tooltip>
      ) : (
        button
      )}
      <DecisionDialog
        open={open}
        title={`Approve stage ${stage}`}
        text={
          stage === 1
            ? `Approve stage 1 for ${name}? It then waits for the stage 2 review by another person.`
            : `Approve stage 2 for ${name}? The business associate becomes verified.`
        }
        confirmLabel="Approve"
        confirmColor="success"
        remarksRequired={false}
        isPending={decision.isPending}
        onCancel={() => setOpen(false)}
        onConfirm={(remarks) => decision.submit({ stage, remarks })}
      />
    </>
  );
};
