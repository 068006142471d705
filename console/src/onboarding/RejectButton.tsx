import { useState } from 'react';
import { Button } from '@mui/material';
import CancelIcon from '@mui/icons-material/Cancel';
import { usePermissions, useRecordContext } from 'react-admin';
import type { BusinessAssociate } from '../shared/types';
import { decidableStage, useDecision } from './decision';
import { DecisionDialog } from './DecisionDialog';

/** Rejects the BA at its current review stage with remarks the BA will read; same visibility as Approve. */
export const RejectButton = () => {
  const record = useRecordContext<BusinessAssociate>();
  const { permissions } = usePermissions<string[]>();
  const stage = decidableStage(record, permissions);
  if (!record || stage === null) return null;
  return <RejectAction record={record} stage={stage} />;
};

const RejectAction = ({ record, stage }: { record: BusinessAssociate; stage: 1 | 2 }) => {
  const [open, setOpen] = useState(false);
  const decision = useDecision(record, 'reject', () => setOpen(false));
  return (
    <>
      <Button
        variant="outlined"
        color="error"
        startIcon={<CancelIcon />}
        data-testid="reject-stage"
        onClick={() => {
          decision.reset();
          setOpen(true);
        }}
      >
        Reject
      </Button>
      <DecisionDialog
        open={open}
        title={`Reject at stage ${stage}`}
        text={`The business associate sees these remarks, corrects its details and submits again.`}
        confirmLabel="Reject"
        confirmColor="error"
        remarksRequired
        isPending={decision.isPending}
        onCancel={() => setOpen(false)}
        onConfirm={(remarks) => decision.submit({ stage, remarks })}
      />
    </>
  );
};
