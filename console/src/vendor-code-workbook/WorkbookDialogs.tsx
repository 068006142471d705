import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
} from '@mui/material';
import type { WorkbookResultRow, WorkbookValidationError } from '../vendor-code/types';
import { msgTypeLabel, venCodeLabel, WORKBOOK_TEXTS } from './api';

/** Spec 000 §9: error tables are 50vh high (they scroll inside). */
const TABLE_SX = { maxHeight: '50vh' } as const;

/** The Data cell: the rule's message, and the offending value when the cell had one. */
export const dataText = (e: WorkbookValidationError): string => {
  const value = e.value === null || e.value === undefined ? '' : String(e.value).trim();
  return value ? `${e.message}: ${value}` : e.message;
};

/** "Validation Error": one line per failed cell — Sheet, Row No (data index + 2), Column Name, Data. */
export const ValidationErrorDialog = ({
  errors,
  onClose,
}: {
  errors: WorkbookValidationError[] | null;
  onClose: () => void;
}) => (
  <Dialog open={errors !== null} onClose={onClose} fullWidth maxWidth="md" aria-labelledby="workbook-validation-title">
    <DialogTitle id="workbook-validation-title" sx={{ color: 'error.main' }}>
      {WORKBOOK_TEXTS.validationError}
    </DialogTitle>
    <DialogContent>
      <TableContainer sx={TABLE_SX}>
        <Table size="small" stickyHeader aria-label={WORKBOOK_TEXTS.validationError}>
          <TableHead>
            <TableRow>
              <TableCell>Sheet</TableCell>
              <TableCell>Row No</TableCell>
              <TableCell>Column Name</TableCell>
              <TableCell>Data</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(errors ?? []).map((e, i) => (
              <TableRow key={i}>
                <TableCell>{e.sheet}</TableCell>
                <TableCell>{e.row}</TableCell>
                <TableCell>{e.column}</TableCell>
                <TableCell>{dataText(e)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </DialogContent>
    <DialogActions>
      <Button onClick={onClose} variant="contained">
        Close
      </Button>
    </DialogActions>
  </Dialog>
);

/** The ERP's answer per row: Type, PAN, MSG, MSGTYPE (SUCCESS / ERROR / INVALID CODE), VEN_CODE ("-" when empty). */
export const ResultDialog = ({
  title,
  rows,
  message,
  onClose,
}: {
  title: string;
  rows: WorkbookResultRow[] | null;
  /** The API's summary when the upload failed. */
  message?: string | null;
  onClose: () => void;
}) => (
  <Dialog open={rows !== null} onClose={onClose} fullWidth maxWidth="md" aria-labelledby="workbook-result-title">
    <DialogTitle id="workbook-result-title">{title}</DialogTitle>
    <DialogContent>
      {message && (
        <Alert severity="error" sx={{ mb: 1 }}>
          {message}
        </Alert>
      )}
      <TableContainer sx={TABLE_SX}>
        <Table size="small" stickyHeader aria-label={title}>
          <TableHead>
            <TableRow>
              <TableCell>Type</TableCell>
              <TableCell>PAN</TableCell>
              <TableCell>MSG</TableCell>
              <TableCell>MSGTYPE</TableCell>
              <TableCell>VEN_CODE</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(rows ?? []).map((r, i) => {
              const type = msgTypeLabel(r.MSGTYPE);
              return (
                <TableRow key={i}>
                  <TableCell>{r.Type}</TableCell>
                  <TableCell>{r.PAN}</TableCell>
                  <TableCell>{r.MSG}</TableCell>
                  <TableCell sx={{ color: type === 'SUCCESS' ? 'success.main' : 'error.main', fontWeight: 600 }}>{type}</TableCell>
                  <TableCell>{venCodeLabel(r.VEN_CODE)}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
    </DialogContent>
    <DialogActions>
      <Button onClick={onClose} variant="contained">
        Close
      </Button>
    </DialogActions>
  </Dialog>
);
