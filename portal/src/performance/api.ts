import type { HomeResponse } from '../../../api/src/performance/home';
import type { Period } from '../../../projections/src/performance/periods';
import type { PerformanceBucket, PerformanceFigures, PerformanceReport } from '../../../projections/src/performance/performance.queries';
import type { ApiClient } from '../api/client';

/** The answers of GET /api/performance/:baId and GET /api/home (type-only: erased from the bundle). */
export type { HomeResponse, Period, PerformanceBucket, PerformanceFigures, PerformanceReport };

/** The performance dashboard's and the home page's calls, with the session. */
export function performanceApi(client: ApiClient) {
  return {
    performance: (baId: string, period: Period): Promise<PerformanceReport> =>
      client.call<PerformanceReport>(`/api/performance/${encodeURIComponent(baId)}?period=${period}`),
    home: (): Promise<HomeResponse> => client.call<HomeResponse>('/api/home'),
  };
}

export type PerformanceApi = ReturnType<typeof performanceApi>;
