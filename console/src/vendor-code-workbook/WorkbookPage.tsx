import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  LinearProgress,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Tabs,
  Typography,
} from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import UploadIcon from '@mui/icons-material/Upload';
import SendIcon from '@mui/icons-material/Send';
import { Title, useNotify, usePermissions } from 'react-admin';
import { v4 as uuidv4 } from 'uuid';
import { extensionOf } from '../../../domain/src/validation/files';
import { ErrorDialog } from '../../../ui/src/ErrorDialog';
import { saveBlob } from '../../../ui/src/saveBlob';
import { errorText } from '../providers/httpClient';
import { mayCreateVendorCodes } from '../vendor-code/access';
import type { WorkbookKind, WorkbookPreviewRow, WorkbookResult, WorkbookResultRow, WorkbookValidationError } from '../vendor-code/types';
import {
  downloadWorkbookTemplate,
  fetchWorkbookResult,
  submitWorkbook,
  validateWorkbook,
  WORKBOOK_SCREENS,
  WORKBOOK_TEXTS,
} from './api';
import { ResultDialog, ValidationErrorDialog } from './WorkbookDialogs';

/** Spec 000 §9 page sizes. */
export const PREVIEW_PAGE_SIZES = [5, 10, 20];
export const RESULT_POLL_MS = 2_000;

const cell = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** A refusal as the spec wants it: the server's message and the response status. */
const failureText = (error: unknown): string => {
  const status = (error as { status?: number } | null)?.status;
  const text = errorText(error);
  return status ? `${text}\n(status ${status})` : text;
};

const Preview = ({ rows }: { rows: WorkbookPreviewRow[] }) => {
  const sheets = useMemo(() => [...new Set(rows.map((r) => r.sheet))], [rows]);
  const [sheet, setSheet] = useState(sheets[0] ?? '');
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(10);
  const current = sheets.includes(sheet) ? sheet : (sheets[0] ?? '');
  const sheetRows = rows.filter((r) => r.sheet === current);
  const columns = [...new Set(sheetRows.flatMap((r) => Object.keys(r.values)))];
  const shown = sheetRows.slice(page * perPage, page * perPage + perPage);
  return (
    <Box>
      {sheets.length > 1 && (
        <Tabs
          value={current}
          onChange={(_e, next: string) => {
            setSheet(next);
            setPage(0);
          }}
          aria-label="Sheet"
        >
          {sheets.map((s) => (
            <Tab key={s} value={s} label={s} />
          ))}
        </Tabs>
      )}
      <TableContainer sx={{ maxHeight: '60vh' }}>
        <Table size="small" stickyHeader aria-label="Preview">
          <TableHead>
            <TableRow>
              {columns.map((c) => (
                <TableCell key={c} sx={{ whiteSpace: 'nowrap' }}>
                  {c}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map((r, i) => (
              <TableRow key={page * perPage + i}>
                {columns.map((c) => (
                  <TableCell key={c}>{cell(r.values[c])}</TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={sheetRows.length}
        page={page}
        onPageChange={(_e, p) => setPage(p)}
        rowsPerPage={perPage}
        rowsPerPageOptions={PREVIEW_PAGE_SIZES}
        onRowsPerPageChange={(e) => {
          setPerPage(Number(e.target.value));
          setPage(0);
        }}
      />
    </Box>
  );
};

/**
 * /sap/create-utility-vendor-code and /sap/create-other-company-vendor-code (spec 000 §2 "Vendor-code upload
 * screens", §4 "Vendor-code upload"; MLL-ADMIN only): choose the workbook (checked at once by the API: the
 * "Validation Error" dialog, or a paged preview), then Submit — the ERP creates the codes and the result dialog
 * lists its answer per row; on success "File Uploaded successfully" and the selection is cleared.
 */
export const WorkbookPage = ({ kind }: { kind: WorkbookKind }) => {
  const screen = WORKBOOK_SCREENS[kind];
  const { permissions, isPending: permissionsPending } = usePermissions<string[]>();
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  const key = useRef<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [rows, setRows] = useState<WorkbookPreviewRow[] | null>(null);
  const [busy, setBusy] = useState<'checking' | 'submitting' | 'waiting' | null>(null);
  const [errors, setErrors] = useState<WorkbookValidationError[] | null>(null);
  const [result, setResult] = useState<WorkbookResultRow[] | null>(null);
  const [resultMessage, setResultMessage] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [pendingId, setPendingId] = useState<string | null>(null);

  const clear = () => {
    setFile(null);
    setRows(null);
    key.current = null;
  };

  const showResult = (r: WorkbookResult) => {
    setResult(Array.isArray(r.data) ? r.data : []);
    // A failed upload's rows carry their own messages (the dialog shows them and the API's summary line).
    setResultMessage(r.status === 'success' ? null : r.message || null);
    if (r.status === 'success') {
      notify(WORKBOOK_TEXTS.uploaded, { type: 'success' });
      clear();
    }
  };

  // Over the command deadline (202): the results are read until the ERP has answered every row.
  useEffect(() => {
    if (!pendingId) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const r = await fetchWorkbookResult(pendingId);
        if (stopped) return;
        if (r) {
          setPendingId(null);
          setBusy(null);
          showResult(r);
          return;
        }
      } catch (e) {
        if (stopped) return;
        setPendingId(null);
        setBusy(null);
        setFailure(failureText(e));
        return;
      }
      timer = setTimeout(poll, RESULT_POLL_MS);
    };
    timer = setTimeout(poll, RESULT_POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pendingId]);

  const choose = async (chosen: File) => {
    const ext = extensionOf(chosen.name);
    if (ext !== 'xlsx' && ext !== 'xls') {
      setFailure(WORKBOOK_TEXTS.onlyExcel);
      return;
    }
    clear();
    setBusy('checking');
    try {
      const outcome = await validateWorkbook(kind, chosen);
      if (outcome.ok) {
        setFile(chosen);
        setRows(outcome.rows);
      } else {
        setErrors(outcome.errors);
      }
    } catch (e) {
      setFailure(failureText(e));
    } finally {
      setBusy(null);
    }
  };

  const submit = async () => {
    if (!file || busy) return;
    setBusy('submitting');
    key.current ??= uuidv4();
    try {
      const outcome = await submitWorkbook(kind, file, key.current);
      if (outcome.kind === 'accepted') {
        setBusy('waiting');
        setPendingId(outcome.id);
        return;
      }
      if (outcome.kind === 'invalid') setErrors(outcome.errors);
      else showResult(outcome.result);
    } catch (e) {
      setFailure(failureText(e));
    }
    setBusy(null);
  };

  const template = async () => {
    try {
      const { blob, fileName } = await downloadWorkbookTemplate(kind);
      saveBlob(blob, fileName);
    } catch (e) {
      setFailure(failureText(e));
    }
  };

  if (permissionsPending) return null;
  if (!mayCreateVendorCodes(permissions)) {
    return <Alert severity="warning" sx={{ mt: 2 }}>You don't have enough rights to view this page.</Alert>;
  }

  return (
    <Box sx={{ mt: 1, display: 'grid', gap: 2 }}>
      <Title title={screen.title} />
      <Typography variant="h5" component="h1">
        {screen.title}
      </Typography>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
        <Button variant="outlined" startIcon={<UploadIcon />} onClick={() => input.current?.click()} disabled={busy !== null}>
          Upload Template
        </Button>
        <input
          ref={input}
          type="file"
          hidden
          accept=".xlsx,.xls,.csv"
          aria-label="Vendor code workbook"
          data-testid={`workbook-file-${kind}`}
          onChange={(e) => {
            const chosen = e.target.files?.[0];
            e.target.value = '';
            if (chosen) void choose(chosen);
          }}
        />
        <Button variant="outlined" startIcon={<DownloadIcon />} onClick={template}>
          Download Template
        </Button>
        <Button variant="contained" startIcon={<SendIcon />} onClick={submit} disabled={!file || busy !== null}>
          Submit
        </Button>
        {file && (
          <Typography variant="body2" color="text.secondary" data-testid="workbook-chosen">
            {file.name}
          </Typography>
        )}
      </Box>
      {busy && (
        <Box>
          <Typography variant="body2">
            {busy === 'checking' ? 'Checking the workbook…' : busy === 'submitting' ? 'Creating the vendor codes…' : 'Waiting for the ERP…'}
          </Typography>
          <LinearProgress />
        </Box>
      )}
      <Card variant="outlined">
        <CardContent>
          {rows ? (
            <Preview rows={rows} />
          ) : (
            <Typography color="text.secondary" sx={{ textAlign: 'center', py: 4 }} data-testid="workbook-empty">
              {WORKBOOK_TEXTS.empty}
            </Typography>
          )}
        </CardContent>
      </Card>
      <ValidationErrorDialog errors={errors} onClose={() => setErrors(null)} />
      <ResultDialog title={screen.resultTitle} rows={result} message={resultMessage} onClose={() => setResult(null)} />
      <ErrorDialog open={failure !== null} message={failure ?? ''} onClose={() => setFailure(null)} />
    </Box>
  );
};

export const UtilityVendorCodePage = () => <WorkbookPage kind="utility" />;
export const OtherCompanyVendorCodePage = () => <WorkbookPage kind="other-company" />;
