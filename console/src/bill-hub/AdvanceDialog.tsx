import { useRef, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useNotify, useRefresh } from 'react-admin';
import { v4 as uuidv4 } from 'uuid';
import { errorText } from '../providers/httpClient';
import { recordAdvance, type AdvanceInput } from './api';
import { BILL_HUB_TEXTS } from './labels';
import type { MemoRow } from './types';

/** The contract's amount form: at most two decimals. */
const AMOUNT = /^\d+(\.\d{1,2})?$/;

type Errors = Partial<Record<keyof AdvanceInput, string>>;

/** The form's rules, before sending (the API checks the same). */
export function advanceErrors(input: AdvanceInput): Errors {
  const errors: Errors = {};
  const amount = input.amount.trim();
  if (!AMOUNT.test(amount)) errors.amount = BILL_HUB_TEXTS.amountInvalid;
  else if (Number(amount) === 0) errors.amount = BILL_HUB_TEXTS.amountZero;
  if (!input.reference.trim()) errors.reference = BILL_HUB_TEXTS.referenceRequired;
  if (!input.paidOn) errors.paidOn = BILL_HUB_TEXTS.paidOnRequired;
  return errors;
}

const EMPTY: AdvanceInput = { amount: '', reference: '', paidOn: '' };

/** "Record advance" (INVOICE_ACCOUNTS): POST /api/memos/:id/advances {amount, reference, paidOn}. */
export const AdvanceDialog = ({ memo, open, onClose }: { memo: MemoRow; open: boolean; onClose: () => void }) => {
  const [input, setInput] = useState<AdvanceInput>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const notify = useNotify();
  const refresh = useRefresh();
  const key = useRef<string | null>(null);
  const save = useMutation({
    mutationFn: (body: AdvanceInput) => {
      key.current ??= uuidv4();
      return recordAdvance(memo.id, body, key.current);
    },
    onSuccess: (answer) => {
      key.current = null;
      notify(answer.message || BILL_HUB_TEXTS.advanceRecorded, { type: 'success' });
      onClose();
      refresh();
    },
    onError: (error) => {
      if ((error as { status?: number }).status) key.current = null;
      notify(errorText(error), { type: 'error' });
    },
  });
  const set = (field: keyof AdvanceInput) => (e: React.ChangeEvent<HTMLInputElement>) => setInput((v) => ({ ...v, [field]: e.target.value }));
  const submit = () => {
    const found = advanceErrors(input);
    setErrors(found);
    if (Object.keys(found).length === 0) save.mutate({ amount: input.amount.trim(), reference: input.reference.trim(), paidOn: input.paidOn });
  };
  return (
    <Dialog
      open={open}
      onClose={save.isPending ? undefined : onClose}
      fullWidth
      maxWidth="xs"
      aria-labelledby="advance-title"
      slotProps={{ transition: { onEnter: () => (setInput(EMPTY), setErrors({})) } }}
    >
      <DialogTitle id="advance-title">Record advance for {memo.memoNumber}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <TextField
            label="Amount"
            required
            value={input.amount}
            onChange={set('amount')}
            error={!!errors.amount}
            helperText={errors.amount ?? ' '}
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
          />
          <TextField
            label="Reference"
            required
            value={input.reference}
            onChange={set('reference')}
            error={!!errors.reference}
            helperText={errors.reference ?? ' '}
            slotProps={{ htmlInput: { maxLength: 260 } }}
          />
          <TextField
            label="Paid on"
            type="date"
            required
            value={input.paidOn}
            onChange={set('paidOn')}
            error={!!errors.paidOn}
            helperText={errors.paidOn ?? ' '}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button variant="contained" onClick={submit} disabled={save.isPending}>
          Record advance
        </Button>
      </DialogActions>
    </Dialog>
  );
};
