import { useQuery } from '@tanstack/react-query';
import { fetchVendorCodeCounts } from './api';
import type { VendorCodeCounts } from './types';

/**
 * GET /api/vendor-codes/counts for the dashboard tabs and the sidebar; undefined while loading or after a
 * failure (the badges then stay empty). react-admin's refresh invalidates it with everything else.
 */
export function useVendorCodeCounts(enabled = true): VendorCodeCounts | undefined {
  const { data } = useQuery({
    queryKey: ['vendor-codes', 'counts'],
    queryFn: fetchVendorCodeCounts,
    enabled,
    refetchInterval: 60_000,
    staleTime: 5_000,
    retry: false,
  });
  return data && typeof data.all === 'number' ? data : undefined;
}
