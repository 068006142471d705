import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import type { BaCounts } from '../shared/types';

/** Refreshed on react-admin's refresh (it invalidates every query) and every minute while open. */
export const BA_COUNTS_REFETCH_MS = 60_000;

/** The badge counts, or undefined while loading or after a failure (badges then simply stay empty). */
export function useBaCounts(): BaCounts | undefined {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data } = useQuery({
    queryKey: ['ba-counts'],
    queryFn: () => dataProvider.getCounts(),
    refetchInterval: BA_COUNTS_REFETCH_MS,
    // The sidebar and the tabs mount together: one request serves both.
    staleTime: 5_000,
    retry: false,
  });
  // After a 401 react-admin's proxy resolves with { data: {} } while it logs out: no numbers then.
  return data && typeof data.all === 'number' ? data : undefined;
}
