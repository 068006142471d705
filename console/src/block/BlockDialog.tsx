import { useRef, useState } from 'react';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormLabel,
  MenuItem,
  Radio,
  RadioGroup,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useNotify, useRefresh } from 'react-admin';
import { v4 as uuidv4 } from 'uuid';
import { acceptOf, extensionOf, FILE_KINDS } from '../../../domain/src/validation/files';
import { blockMessages } from '../../../domain/src/block/decide';
import { errorText } from '../providers/httpClient';
import { MasterSelect } from '../vendor-code/MasterSelect';
import { BLOCK_MESSAGES, requestBlock, type BlockRequestInput } from './api';

/** What the dialog can offer: who is blocked and which codes they hold. */
export type BlockTarget = {
  target: BlockRequestInput['target'];
  /** Company name or PAN, for the title. */
  label: string;
  companyCodes: string[];
  /** Child codes to choose from when the scope is "child". */
  childCodes: { code: string; label: string; companyCode: string }[];
  /** Currently blocked: the dialog proposes an unblock. */
  blocked: boolean;
};

/** The API's own texts (domain/src/block/decide.ts) where it has them. */
export const BLOCK_FORM_TEXTS = {
  reasonRequired: blockMessages.reason,
  commentsRequired: blockMessages.comments,
  fileRequired: 'Please attach the supporting document',
  childRequired: 'Please select the child code',
  companyRequired: 'Please select the company code',
  endDateFuture: blockMessages.endDateFuture,
} as const;

const today = () => new Date().toISOString().slice(0, 10);

type Values = {
  action: 'block' | 'unblock';
  scope: 'parent' | 'child';
  companyCode: string;
  childCode: string;
  reasonId: string;
  comments: string;
  endDate: string;
};

/**
 * The block / unblock request (issue 9): action, scope (parent or one child code) and company code, a reason from
 * the block-reasons master, comments, the supporting attachment (image or pdf) and, for a block, an optional end
 * date on which the block is lifted through the same approval trail. A second person approves it in the Block
 * Requests queue; only then is it applied in the ERP.
 */
export const BlockDialog = ({ open, onClose, target }: { open: boolean; onClose: () => void; target: BlockTarget }) => {
  const initial = (): Values => ({
    action: target.blocked ? 'unblock' : 'block',
    scope: 'parent',
    companyCode: target.companyCodes.length === 1 ? target.companyCodes[0]! : '',
    childCode: '',
    reasonId: '',
    comments: '',
    endDate: '',
  });
  const [values, setValues] = useState<Values>(initial);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const key = useRef<string | null>(null);
  const notify = useNotify();
  const refresh = useRefresh();
  const set = <K extends keyof Values>(k: K, v: Values[K]) => setValues((old) => ({ ...old, [k]: v }));

  const send = useMutation({
    mutationFn: (input: BlockRequestInput) => {
      key.current ??= uuidv4();
      return requestBlock(input, key.current);
    },
    onSuccess: (answer) => {
      key.current = null;
      notify(answer?.message || BLOCK_MESSAGES.requested, { type: 'success' });
      onClose();
      refresh();
    },
    onError: (error) => {
      if ((error as { status?: number }).status) key.current = null;
      notify(errorText(error), { type: 'error' });
    },
  });

  const childChoices = target.childCodes.filter((c) => !values.companyCode || c.companyCode === values.companyCode);
  const errors = {
    companyCode: !values.companyCode ? BLOCK_FORM_TEXTS.companyRequired : null,
    childCode: values.scope === 'child' && !values.childCode ? BLOCK_FORM_TEXTS.childRequired : null,
    reasonId: !values.reasonId ? BLOCK_FORM_TEXTS.reasonRequired : null,
    comments: !values.comments.trim() ? BLOCK_FORM_TEXTS.commentsRequired : null,
    file: fileError ?? (!file ? BLOCK_FORM_TEXTS.fileRequired : null),
    endDate: values.action === 'block' && values.endDate && values.endDate <= today() ? BLOCK_FORM_TEXTS.endDateFuture : null,
  };
  const shown = (k: keyof typeof errors) => (touched || (k === 'file' && fileError) ? errors[k] : null);

  const pick = (chosen: File | undefined) => {
    if (!chosen) return;
    const ext = extensionOf(chosen.name);
    if (!ext || !FILE_KINDS.imageOrPdf.extensions.includes(ext)) {
      setFile(null);
      setFileError(FILE_KINDS.imageOrPdf.message);
      return;
    }
    setFileError(null);
    setFile(chosen);
  };

  const submit = () => {
    setTouched(true);
    if (Object.values(errors).some(Boolean) || !file || send.isPending) return;
    send.mutate({
      target: target.target,
      action: values.action,
      scope: values.scope,
      companyCode: values.companyCode,
      childCode: values.scope === 'child' ? values.childCode : null,
      reasonId: values.reasonId,
      comments: values.comments.trim(),
      endDate: values.action === 'block' && values.endDate ? values.endDate : null,
      file,
    });
  };

  return (
    <Dialog
      open={open}
      onClose={send.isPending ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="block-dialog-title"
      slotProps={{
        transition: {
          onEnter: () => {
            setValues(initial());
            setFile(null);
            setFileError(null);
            setTouched(false);
            key.current = null;
          },
        },
      }}
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <DialogTitle id="block-dialog-title">Block / Unblock — {target.label}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 1 }}>
          <FormControl>
            <FormLabel id="block-action">Action</FormLabel>
            <RadioGroup
              row
              aria-labelledby="block-action"
              value={values.action}
              onChange={(e) => set('action', e.target.value as Values['action'])}
            >
              <FormControlLabel value="block" control={<Radio />} label="Block" />
              <FormControlLabel value="unblock" control={<Radio />} label="Unblock" />
            </RadioGroup>
          </FormControl>
          <FormControl>
            <FormLabel id="block-scope">Scope</FormLabel>
            <RadioGroup
              row
              aria-labelledby="block-scope"
              value={values.scope}
              onChange={(e) => set('scope', e.target.value as Values['scope'])}
            >
              <FormControlLabel value="parent" control={<Radio />} label="Parent code" />
              <FormControlLabel value="child" control={<Radio />} label="Child code" disabled={target.childCodes.length === 0} />
            </RadioGroup>
          </FormControl>
          <TextField
            select
            label="Company code"
            required
            value={values.companyCode}
            onChange={(e) => set('companyCode', e.target.value)}
            error={Boolean(shown('companyCode'))}
            helperText={shown('companyCode') ?? ' '}
          >
            {target.companyCodes.map((code) => (
              <MenuItem key={code} value={code}>
                {code}
              </MenuItem>
            ))}
          </TextField>
          {values.scope === 'child' && (
            <TextField
              select
              label="Child code"
              required
              value={values.childCode}
              onChange={(e) => set('childCode', e.target.value)}
              error={Boolean(shown('childCode'))}
              helperText={shown('childCode') ?? ' '}
            >
              {childChoices.map((c) => (
                <MenuItem key={c.code} value={c.code}>
                  {c.label}
                </MenuItem>
              ))}
            </TextField>
          )}
          <MasterSelect
            resource="block-reasons"
            label="Reason"
            required
            value={values.reasonId}
            onChange={(v) => set('reasonId', v)}
            optionText={(item) => String(item['reason'] ?? item.id)}
            error={shown('reasonId')}
            testId="block-reason"
          />
          <TextField
            label="Comments"
            required
            multiline
            minRows={2}
            value={values.comments}
            onChange={(e) => set('comments', e.target.value)}
            error={Boolean(shown('comments'))}
            helperText={shown('comments') ?? ' '}
            slotProps={{ htmlInput: { maxLength: 1000 } }}
          />
          {values.action === 'block' && (
            <TextField
              label="End date (optional)"
              type="date"
              value={values.endDate}
              onChange={(e) => set('endDate', e.target.value)}
              error={Boolean(shown('endDate'))}
              helperText={shown('endDate') ?? 'Leave empty to block until an unblock is approved'}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          )}
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
            <Button variant="outlined" component="label" disabled={send.isPending}>
              Attach document
              <input
                hidden
                type="file"
                accept={acceptOf('imageOrPdf')}
                aria-label="Attachment"
                data-testid="block-file"
                onChange={(e) => {
                  pick(e.target.files?.[0]);
                  e.target.value = '';
                }}
              />
            </Button>
            <Typography variant="body2" color={shown('file') ? 'error' : 'text.secondary'} data-testid="block-file-state">
              {shown('file') ?? (file ? file.name : 'No file chosen')}
            </Typography>
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={send.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" color={values.action === 'block' ? 'error' : 'primary'} disabled={send.isPending}>
            Send request
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
