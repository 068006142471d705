import { useCallback, useEffect, useRef, useState } from 'react';
import { useApi } from '../api/ApiContext';
import { isApiError, messageOf, type ApiClient } from '../api/client';
import { useFeedback } from '../shared/feedback';

/**
 * What both user pages (BA users, Bill-Hub users) load: their rows, behind the loading overlay, and one list of
 * options for their form (departments, states), whose failure only leaves the select empty. `failed` opens the
 * error dialog for anything but a 401, which the session handles.
 */
export function useUserRows<Row, Option>(
  rowsOf: (client: ApiClient) => Promise<Row[]>,
  optionsOf: (client: ApiClient) => Promise<Option[]>,
) {
  const client = useApi();
  const { showError, withLoading } = useFeedback();
  const [rows, setRows] = useState<Row[] | null>(null);
  const [options, setOptions] = useState<Option[]>([]);
  // The callers pass inline functions: kept in refs so they do not reload the page on every render.
  const readers = useRef({ rowsOf, optionsOf });
  readers.current = { rowsOf, optionsOf };

  const failed = useCallback(
    (e: unknown) => {
      if (!(isApiError(e) && e.status === 401)) showError(messageOf(e));
    },
    [showError],
  );

  const load = useCallback(async () => {
    try {
      setRows(await withLoading(() => readers.current.rowsOf(client)));
    } catch (e) {
      failed(e);
    }
  }, [client, withLoading, failed]);

  useEffect(() => {
    void load();
    readers.current
      .optionsOf(client)
      .then(setOptions)
      .catch(() => setOptions([]));
  }, [client, load]);

  return { rows, options, load, failed };
}
