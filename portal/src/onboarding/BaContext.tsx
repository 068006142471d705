import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useApi } from '../api/ApiContext';
import { isApiError, messageOf, type BusinessAssociate } from '../api/client';
import { useFeedback } from '../shared/feedback';

type BaState = {
  ba: BusinessAssociate | null;
  error: string | null;
  /** After a command the API answers with the new row; screens put it here instead of re-reading. */
  setBa: (row: BusinessAssociate) => void;
  reload: () => Promise<void>;
};

export type BaContextValue = Omit<BaState, 'ba' | 'error'> & { ba: BusinessAssociate };

const BaContext = createContext<BaState | null>(null);

/** Loads the signed-in BA's own record (GET /api/business-associates/:baId) once for all its screens. */
export function BaProvider({ baId, children }: { baId: string; children: ReactNode }) {
  const client = useApi();
  const { withLoading } = useFeedback();
  const [ba, setBa] = useState<BusinessAssociate | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      setBa(await withLoading(() => client.getBa(baId)));
      setError(null);
    } catch (e) {
      // A 401 is handled by the session (dialog + login page); anything else is shown with a retry.
      if (!(isApiError(e) && e.status === 401)) setError(messageOf(e));
    }
  }, [client, baId, withLoading]);

  useEffect(() => {
    void reload();
  }, [reload]);

  // A command may answer before the read model has caught up, with only the fields the workflow knows
  // (api/src/onboarding/routes.ts, fromState): merge, so the fields it leaves out keep their last value.
  const merge = useCallback(
    (row: BusinessAssociate) => setBa((prev) => (prev && prev.id === row.id ? { ...prev, ...row } : row)),
    [],
  );
  const value = useMemo(() => ({ ba, error, setBa: merge, reload }), [ba, error, merge, reload]);
  return <BaContext.Provider value={value}>{children}</BaContext.Provider>;
}

/** Renders its children once the record is loaded, or the load error with a retry. */
export function BaGate({ children }: { children: ReactNode }) {
  const state = useContext(BaContext);
  if (!state) throw new Error('BaGate must be used inside <BaProvider>');
  if (state.ba) return <>{children}</>;
  if (!state.error) return null;
  return (
    <Alert
      severity="error"
      sx={{ whiteSpace: 'pre-wrap' }}
      action={
        <Button color="inherit" size="small" onClick={() => void state.reload()}>
          Retry
        </Button>
      }
    >
      {state.error}
    </Alert>
  );
}

/** The loaded record; only for screens inside <BaGate>. */
export function useBa(): BaContextValue {
  const state = useContext(BaContext);
  if (!state?.ba) throw new Error('useBa must be used inside <BaGate>');
  return { ba: state.ba, setBa: state.setBa, reload: state.reload };
}

/** For the header, which renders before the record is loaded. */
export function useOptionalBa(): BusinessAssociate | null {
  return useContext(BaContext)?.ba ?? null;
}
