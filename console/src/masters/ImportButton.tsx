import { useRef, type ChangeEvent } from 'react';
import { Button } from '@mui/material';
import UploadIcon from '@mui/icons-material/Upload';
import { useMutation } from '@tanstack/react-query';
import { useDataProvider, useNotify, useRefresh } from 'react-admin';
import type { MasterDefinition } from '../../../domain/src/masters/definitions';
import { saveFile } from '../audit/AuditPanel';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { errorText } from '../providers/httpClient';
import type { MasterImportResult } from './types';

/** What the user reads when the upload was refused row by row (the workbook downloads at the same time). */
export const IMPORT_ERRORS_MESSAGE = 'Some rows have errors. Please check the downloaded file.';

/** "3 added, 2 updated, 40 unchanged". */
export function importSummary(result: MasterImportResult): string {
  const parts = [`${result.created} added`, `${result.updated} updated`];
  if (result.unchanged > 0) parts.push(`${result.unchanged} unchanged`);
  return `Upload complete: ${parts.join(', ')}`;
}

/**
 * Uploads an .xlsx (POST /api/<resource>/import). Every row is checked with the master's rules; if any row
 * fails nothing is written and the API answers the workbook with a column of messages, which downloads.
 */
export const ImportButton = ({ def }: { def: MasterDefinition }) => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const input = useRef<HTMLInputElement>(null);
  const upload = useMutation({
    mutationFn: (file: File) => dataProvider.importMaster(def.resource, file),
    onSuccess: (outcome) => {
      if (outcome.ok) {
        notify(importSummary(outcome.result), { type: 'success' });
        refresh();
        return;
      }
      saveFile(outcome.errorWorkbook.blob, outcome.errorWorkbook.fileName);
      notify(IMPORT_ERRORS_MESSAGE, { type: 'error' });
    },
    onError: (error) => notify(errorText(error), { type: 'error' }),
  });

  const picked = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    // The same file can be picked again after fixing it.
    e.target.value = '';
    if (file) upload.mutate(file);
  };

  return (
    <>
      <Button
        size="small"
        startIcon={<UploadIcon />}
        disabled={upload.isPending}
        onClick={() => input.current?.click()}
      >
        {upload.isPending ? 'Uploading…' : 'Import'}
      </Button>
      <input
        ref={input}
        type="file"
        hidden
        accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        aria-label={`Import ${def.label} workbook`}
        data-testid={`import-${def.resource}`}
        onChange={picked}
      />
    </>
  );
};
