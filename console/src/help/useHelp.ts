import { useQuery } from '@tanstack/react-query';
import { API_URL, httpClient } from '../providers/httpClient';
import type { HelpInfo } from '../releases/types';

/**
 * GET /api/help: the user manual's address and the support mailbox, both configured on the server
 * (USER_MANUAL_URL, SUPPORT_EMAIL). Read when first needed and kept: they change only with a redeploy.
 */
export function useHelp() {
  return useQuery({
    queryKey: ['help'],
    queryFn: async () => (await httpClient(`${API_URL}/help`)).json as HelpInfo,
    staleTime: Infinity,
    retry: false,
  });
}
