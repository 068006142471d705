import { useState } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { ACTION_LABELS, BILL_HUB_TEXTS, STAFF_ACTIONS, type StaffAction } from './labels';
import type { InvoiceDetail } from './types';
import { useInvoiceCommand } from './useInvoiceCommand';

/** The spec's text limit (spec 001 §9 "Maximum text length 260"). */
const REMARKS_MAX = 260;

type DialogProps = { invoice: InvoiceDetail; verb: StaffAction; open: boolean; onClose: () => void };

const CONFIRM_TEXT: Partial<Record<StaffAction, string>> = {
  acknowledge: 'Acknowledge the receipt of this invoice?',
  verify: 'Mark this invoice as verified?',
  book: 'Post this invoice to the ERP for booking?',
  release: 'Release the payment of this invoice?',
};

/** Acknowledge, verify, book, release: a confirmation, then the command without a body. */
const ConfirmDialog = ({ invoice, verb, open, onClose }: DialogProps) => {
  const command = useInvoiceCommand(invoice.id, verb, onClose);
  const titleId = `invoice-${verb}-title`;
  return (
    <Dialog open={open} onClose={command.isPending ? undefined : onClose} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>
        {ACTION_LABELS[verb]} invoice {invoice.invoiceNumber}
      </DialogTitle>
      <DialogContent>
        <DialogContentText>{CONFIRM_TEXT[verb]}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={command.isPending}>
          Cancel
        </Button>
        <Button variant="contained" onClick={() => command.mutate({})} disabled={command.isPending}>
          {ACTION_LABELS[verb]}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

/** Reject (remarks required) and revoke (remarks optional): the contract's `{remarks}` body. */
const RemarksDialog = ({ invoice, verb, open, onClose }: DialogProps) => {
  const required = verb === 'reject';
  const [remarks, setRemarks] = useState('');
  const [touched, setTouched] = useState(false);
  const command = useInvoiceCommand(invoice.id, verb, onClose);
  const missing = required && touched && !remarks.trim();
  const titleId = `invoice-${verb}-title`;
  return (
    <Dialog
      open={open}
      onClose={command.isPending ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby={titleId}
      slotProps={{ transition: { onEnter: () => (setRemarks(''), setTouched(false)) } }}
    >
      <DialogTitle id={titleId}>
        {ACTION_LABELS[verb]} invoice {invoice.invoiceNumber}
      </DialogTitle>
      <DialogContent>
        <TextField
          label="Remarks"
          required={required}
          fullWidth
          multiline
          minRows={2}
          value={remarks}
          onChange={(e) => setRemarks(e.target.value)}
          error={missing}
          helperText={missing ? BILL_HUB_TEXTS.remarksRequired : ' '}
          sx={{ mt: 1 }}
          slotProps={{ htmlInput: { maxLength: REMARKS_MAX } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={command.isPending}>
          Cancel
        </Button>
        <Button
          variant="contained"
          color="error"
          disabled={command.isPending}
          onClick={() => {
            setTouched(true);
            const text = remarks.trim();
            if (required && !text) return;
            command.mutate({ remarks: text || null });
          }}
        >
          {ACTION_LABELS[verb]}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

/**
 * The buttons the API allows this user on this invoice now (`allowedActions`, computed by the domain from the
 * roles and the status), in workflow order. Book is withheld while a booking already waits for the ERP.
 */
export const InvoiceActions = () => {
  const invoice = useRecordContext<InvoiceDetail>();
  const [open, setOpen] = useState<StaffAction | null>(null);
  if (!invoice) return null;
  const allowed = new Set(invoice.allowedActions ?? []);
  const verbs = STAFF_ACTIONS.filter((v) => allowed.has(v) && !(v === 'book' && invoice.booking));
  if (verbs.length === 0) return null;
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      {verbs.map((verb) => (
        <Button
          key={verb}
          size="small"
          variant={verb === 'reject' || verb === 'revoke' ? 'outlined' : 'contained'}
          color={verb === 'reject' || verb === 'revoke' ? 'error' : 'primary'}
          onClick={() => setOpen(verb)}
        >
          {ACTION_LABELS[verb]}
        </Button>
      ))}
      {verbs.map((verb) =>
        verb === 'reject' || verb === 'revoke' ? (
          <RemarksDialog key={verb} invoice={invoice} verb={verb} open={open === verb} onClose={() => setOpen(null)} />
        ) : (
          <ConfirmDialog key={verb} invoice={invoice} verb={verb} open={open === verb} onClose={() => setOpen(null)} />
        ),
      )}
    </Box>
  );
};
