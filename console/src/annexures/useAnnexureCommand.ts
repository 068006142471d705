import { useRef, useState } from 'react';
import { HttpError, useDataProvider, useNotify } from 'react-admin';
import { v4 as uuidv4 } from 'uuid';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { errorText } from '../providers/httpClient';

/** Spec 000 §8 / 001 §8 success messages; a title-only change has none in the spec. */
export const ANNEXURE_MESSAGES = {
  uploaded: 'Uploaded successfully',
  fileReplaced: 'File uploaded successfully',
  titleChanged: 'Title updated successfully',
  withdrawn: 'File deleted successfully',
} as const;

type Run<T> = (dataProvider: ConsoleDataProvider, key: string, onProgress: (fraction: number) => void) => Promise<T>;

/**
 * One annexure command as a user action: its Idempotency-Key is chosen once and kept while the request got
 * no answer at all (a retry then cannot store the file twice); any answer ends the action, so the next try
 * — another file after a 415 — is a new request with a new key. Errors open the error dialog with the
 * API's message (413/415 included); progress is the fraction of the file sent, null when idle.
 */
export function useAnnexureCommand() {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const key = useRef<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);

  async function run<T>(command: Run<T>): Promise<T | undefined> {
    key.current ??= uuidv4();
    setProgress(0);
    try {
      const result = await command(dataProvider, key.current, setProgress);
      key.current = null;
      return result;
    } catch (error) {
      if (!(error instanceof HttpError && error.status === 0)) key.current = null;
      // A 401 that no refresh cured: react-admin signs the user out, no dialog on top of that.
      if (!(error instanceof HttpError && error.status === 401)) notify(errorText(error), { type: 'error' });
      return undefined;
    } finally {
      setProgress(null);
    }
  }

  return { run, progress, busy: progress !== null };
}
