import { useNotify } from 'react-admin';
import { saveBlob } from '../../../ui/src/saveBlob';
import { errorText } from '../providers/httpClient';

/** A file the console fetched itself (vendor-code/http.ts `downloadFile`): its bytes and the name to save it under. */
export type FetchedFile = { blob: Blob; fileName: string };

/**
 * Saves a file fetched with the session's token (a plain link cannot send it); a refused or failed fetch is
 * shown as the API's message in a notification. The promise it returns never rejects, so a button can chain
 * `finally` to end its busy state.
 */
export function useSaveDownload(): (file: Promise<FetchedFile>) => Promise<void> {
  const notify = useNotify();
  return (file) =>
    file
      .then(({ blob, fileName }) => saveBlob(blob, fileName))
      .catch((error: unknown) => {
        notify(errorText(error), { type: 'error' });
      });
}
