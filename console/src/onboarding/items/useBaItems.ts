import { useQuery } from '@tanstack/react-query';
import { useDataProvider, type Identifier } from 'react-admin';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import type { BaItemPath, BaItemRows } from './types';

/** The query key of one item read; react-admin's refresh invalidates every query, these included. */
export const baItemsKey = (baId: Identifier | undefined, path: BaItemPath) =>
  ['business-associates', 'items', String(baId), path] as const;

/**
 * One of the BA's item reads. Sections that need the same read (the documents card, the stage-approval
 * check) share one request through react-query's cache.
 */
export function useBaItems<P extends BaItemPath>(baId: Identifier | undefined, path: P, enabled = true) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return useQuery({
    queryKey: baItemsKey(baId, path),
    queryFn: async (): Promise<BaItemRows[P]> => {
      const rows = await dataProvider.getBaItems(baId!, path);
      // After a 401 react-admin's proxy may resolve with nothing while it signs out.
      if (path === 'vertical-mapping') return (rows ?? null) as BaItemRows[P];
      return (Array.isArray(rows) ? rows : []) as BaItemRows[P];
    },
    enabled: baId !== undefined && enabled,
    retry: false,
  });
}
