import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatInr, MISSING } from '../../../domain/src/shared/format';
import { indiaDateAt } from '../../../domain/src/shared/india-date';
import { saveBlob } from '../../../ui/src/saveBlob';
import { useApi } from '../api/ApiContext';
import { isApiError, messageOf } from '../api/client';
import { ConfirmDialog } from '../shared/ConfirmDialog';
import { useFeedback } from '../shared/feedback';
import { billHubApi } from './api';
import { attachmentProblem } from './attachments';
import { AttachmentsPanel } from './AttachmentsPanel';
import { InvoiceFormFields } from './InvoiceFormFields';
import { emptyFields, invoiceProblems, toPayload, totalsOf, type InvoiceErrors } from './invoiceValidation';
import { InvoiceHistory, InvoiceView } from './InvoiceView';
import { BILL_HUB_PATH, invoicePath } from './paths';
import { RevokeDialog } from './RevokeDialog';
import { InvoiceStatusChip } from './StatusChip';
import { billHubTexts, isEditable } from './texts';
import type { FormOptions, HsnOption, InvoiceAttachment, InvoiceDetail, InvoiceFields, InvoiceRow } from './types';

/** The id segment of '/bill-hub/invoice/new': one route, so saving a new draft does not remount the form. */
export const NEW_INVOICE_ID = 'new';

const FIELD_NAMES = Object.keys(emptyFields()) as (keyof InvoiceFields)[];

const fieldsOf = (row: InvoiceRow): InvoiceFields =>
  Object.fromEntries(FIELD_NAMES.map((name) => [name, (row[name] as string | null) ?? ''])) as InvoiceFields;

/**
 * '/bill-hub/invoice/new' and '/bill-hub/invoice/:id' (spec 001 §2, §5): the form while the invoice is a
 * draft or rejected (C), the read-only view with its history otherwise. Attachments are uploaded one by one
 * to the saved invoice, so a new invoice is saved as a draft before its first file.
 */
export function InvoicePage() {
  const { id: param = NEW_INVOICE_ID } = useParams();
  const id = param === NEW_INVOICE_ID ? null : param;
  const client = useApi();
  const api = useMemo(() => billHubApi(client), [client]);
  const { showError, notify, withLoading } = useFeedback();
  const navigate = useNavigate();
  const [invoice, setInvoice] = useState<InvoiceDetail | null>(null);
  const [fields, setFields] = useState<InvoiceFields>(emptyFields);
  const [errors, setErrors] = useState<InvoiceErrors>({});
  const [options, setOptions] = useState<FormOptions | null>(null);
  const [hsnCodes, setHsnCodes] = useState<HsnOption[]>([]);
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const [revoking, setRevoking] = useState(false);
  const discarding = useRef(false);

  /** A refusal: the API's field errors on their fields, anything else (a 409 duplicate) in the error dialog. */
  const refused = useCallback(
    (e: unknown) => {
      if (isApiError(e) && e.status === 401) return;
      const onFields = isApiError(e)
        ? Object.fromEntries(Object.entries(e.fieldErrors).filter(([k]) => (FIELD_NAMES as string[]).includes(k)))
        : {};
      if (Object.keys(onFields).length > 0) setErrors(onFields);
      else showError(messageOf(e));
    },
    [showError],
  );

  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const loaded = await api.formOptions();
        if (!live) return;
        setOptions(loaded);
        // One vendor code to bill from (a GST-state Bill-Hub user has just theirs): chosen already.
        const only = loaded.billingFrom.length === 1 ? loaded.billingFrom[0]?.code : undefined;
        if (only) setFields((f) => (f.billingFromCode === '' ? { ...f, billingFromCode: only } : f));
        const codes = await api.hsnCodes(loaded);
        if (live) setHsnCodes(codes);
      } catch (e) {
        if (live) refused(e);
      }
    })();
    return () => {
      live = false;
    };
  }, [api, refused]);

  const load = useCallback(
    async (invoiceId: string) => {
      const detail = await api.get(invoiceId);
      setInvoice(detail);
      setFields(fieldsOf(detail));
      setErrors({});
    },
    [api],
  );

  useEffect(() => {
    if (id === null) {
      setInvoice(null);
      setFields(emptyFields());
      return;
    }
    load(id).catch((e: unknown) => {
      if (isApiError(e) && e.status === 401) return;
      showError(messageOf(e), () => navigate(BILL_HUB_PATH));
    });
  }, [id, load, navigate, showError]);

  const editable = invoice === null || isEditable(invoice.status);
  const rejected = invoice?.status === 'C';
  const hsnList = useMemo(() => hsnCodes.map((h) => h.hsnCode), [hsnCodes]);
  const totals = totalsOf(fields);

  const change = (name: keyof InvoiceFields, value: string) => {
    setFields((f) => ({ ...f, [name]: value }));
    setErrors((e) => ({ ...e, [name]: undefined }));
  };

  const check = (mode: 'draft' | 'submit') => {
    const problems = invoiceProblems(fields, { mode, today: indiaDateAt(Date.now()), hsnCodes: hsnList.length > 0 ? hsnList : undefined });
    setErrors(problems);
    return Object.keys(problems).length === 0;
  };

  /** Saves the form (creates the draft first time); the invoice's id, or null when refused. */
  const persist = async (): Promise<string | null> => {
    const body = toPayload(fields);
    if (id === null) {
      const created = await api.create(body);
      notify(created.message || billHubTexts.invoiceSaved);
      return created.id;
    }
    const updated = await api.update(id, body);
    notify(updated.message || billHubTexts.invoiceSaved);
    return id;
  };

  const save = async () => {
    if (!check('draft')) return;
    try {
      const saved = await withLoading(persist);
      if (saved && saved !== id) navigate(invoicePath(saved), { replace: true });
      else if (saved) await load(saved);
    } catch (e) {
      refused(e);
    }
  };

  const submit = async () => {
    if (!check('submit')) return;
    let created: string | null = null;
    try {
      await withLoading(async () => {
        const body = toPayload(fields);
        let target = id;
        if (target === null) {
          created = (await api.create(body)).id;
          target = created;
        }
        const answer = await api.submit(target, body);
        notify(answer.message || billHubTexts.invoiceSubmitted);
      });
      navigate(BILL_HUB_PATH);
    } catch (e) {
      // The draft exists now even though the submission was refused: show it under its own address.
      if (created) navigate(invoicePath(created), { replace: true });
      refused(e);
    }
  };

  const discard = async () => {
    setConfirmDiscard(false);
    // A second click on the closing dialog must not discard twice.
    if (!id || discarding.current) return;
    discarding.current = true;
    try {
      const answer = await withLoading(() => api.discard(id));
      notify(answer.message || billHubTexts.invoiceDiscarded);
      navigate(BILL_HUB_PATH);
    } catch (e) {
      refused(e);
    } finally {
      discarding.current = false;
    }
  };

  const revoke = async (remarks: string) => {
    setRevoking(false);
    if (!id) return;
    try {
      const answer = await withLoading(() => api.revoke(id, remarks));
      notify(answer.message || billHubTexts.invoiceRevoked);
      await load(id);
    } catch (e) {
      refused(e);
    }
  };

  const addFiles = async (files: File[]) => {
    let count = invoice?.attachments.length ?? 0;
    for (const file of files) {
      const problem = attachmentProblem(file, count);
      if (problem) return showError(problem);
      count += 1;
    }
    if (id === null && !check('draft')) return showError(billHubTexts.saveFirst);
    let target = id;
    try {
      await withLoading(async () => {
        target ??= await persist();
        if (!target) return;
        for (const file of files) {
          const answer = await api.upload(target, file);
          notify(answer.message || billHubTexts.fileUploaded);
        }
      });
    } catch (e) {
      refused(e);
    }
    if (target && target !== id) navigate(invoicePath(target), { replace: true });
    else if (target) await load(target).catch(refused);
  };

  const removeFile = async (attachment: InvoiceAttachment) => {
    if (!id) return;
    try {
      const answer = await withLoading(() => api.removeAttachment(id, attachment.attachmentId));
      notify(answer.message || billHubTexts.fileDeleted);
      await load(id);
    } catch (e) {
      refused(e);
    }
  };

  const download = async (attachment: InvoiceAttachment) => {
    if (!id) return;
    try {
      saveBlob(await withLoading(() => api.attachment(id, attachment.attachmentId)), attachment.name);
    } catch (e) {
      refused(e);
    }
  };

  if (id !== null && invoice === null) return null;

  return (
    <Stack spacing={3}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Typography variant="h5" component="h1">
          {invoice ? `Invoice ${invoice.invoiceNumber}` : 'Create Invoice'}
        </Typography>
        {invoice && <InvoiceStatusChip status={invoice.status} />}
      </Stack>
      {editable ? (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Stack spacing={2}>
            {rejected && (
              <Alert severity="error">
                {billHubTexts.rejectedBanner}
                {invoice?.remarks ? ` Remarks: ${invoice.remarks}` : ''}
              </Alert>
            )}
            <InvoiceFormFields
              fields={fields}
              errors={errors}
              options={options}
              hsnCodes={hsnCodes}
              numberLocked={rejected}
              onChange={change}
            />
            <Typography data-testid="invoice-totals">
              Total: {totals ? formatInr(totals.total) : MISSING} · Net payable: {totals ? formatInr(totals.net) : MISSING}
            </Typography>
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
              <Button variant="outlined" onClick={() => void save()}>
                {rejected ? 'Save' : 'Save as draft'}
              </Button>
              <Button variant="contained" onClick={() => void submit()}>
                {rejected ? 'Resubmit' : 'Submit'}
              </Button>
              {invoice?.status === 'draft' && (
                <Button color="error" onClick={() => setConfirmDiscard(true)}>
                  Discard
                </Button>
              )}
              <Button onClick={() => navigate(BILL_HUB_PATH)}>Back</Button>
            </Stack>
          </Stack>
        </Paper>
      ) : (
        invoice && <InvoiceView invoice={invoice} />
      )}
      <Divider />
      <AttachmentsPanel
        attachments={invoice?.attachments ?? []}
        editable={editable}
        onAdd={(files) => void addFiles(files)}
        onRemove={(a) => void removeFile(a)}
        onDownload={(a) => void download(a)}
      />
      {invoice && <InvoiceHistory history={invoice.history} />}
      {!editable && (
        <Stack direction="row" spacing={1}>
          {/* The API says what this caller may do now: a BA may revoke its invoice while it is Submitted. */}
          {invoice?.allowedActions.includes('revoke') && (
            <Button color="error" variant="outlined" onClick={() => setRevoking(true)}>
              Revoke
            </Button>
          )}
          <Button onClick={() => navigate(BILL_HUB_PATH)}>Back</Button>
        </Stack>
      )}
      <RevokeDialog open={revoking} onRevoke={(remarks) => void revoke(remarks)} onCancel={() => setRevoking(false)} />
      <ConfirmDialog
        open={confirmDiscard}
        title="Discard invoice"
        confirmLabel="Discard"
        onConfirm={() => void discard()}
        onCancel={() => setConfirmDiscard(false)}
      >
        {billHubTexts.discardConfirm}
      </ConfirmDialog>
    </Stack>
  );
}
