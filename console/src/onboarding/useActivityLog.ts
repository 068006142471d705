import { useQuery } from '@tanstack/react-query';
import { useDataProvider, type Identifier } from 'react-admin';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import type { ActivityEntry } from '../shared/types';

/** One query per BA, shared by the timeline and the activity log (react-query dedupes the request). */
export function useActivityLog(baId: Identifier | undefined) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return useQuery({
    queryKey: ['business-associates', 'activity-log', baId],
    queryFn: async (): Promise<ActivityEntry[]> => {
      const entries = await dataProvider.getActivityLog(baId!);
      return Array.isArray(entries) ? entries : [];
    },
    enabled: baId !== undefined,
  });
}
