import { Button } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { useMutation } from '@tanstack/react-query';
import { useDataProvider, useNotify } from 'react-admin';
import type { MasterDefinition } from '../../../domain/src/masters/definitions';
import { saveFile } from '../audit/AuditPanel';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { errorText } from '../providers/httpClient';

/** The whole master as an .xlsx (GET /api/<resource>/export): the file an import takes back. */
export const ExportButton = ({ def }: { def: MasterDefinition }) => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const download = useMutation({
    mutationFn: () => dataProvider.exportMaster(def.resource),
    onSuccess: ({ blob, fileName }) => saveFile(blob, fileName),
    onError: (error) => notify(errorText(error), { type: 'error' }),
  });
  return (
    <Button size="small" startIcon={<DownloadIcon />} disabled={download.isPending} onClick={() => download.mutate()}>
      Export
    </Button>
  );
};
