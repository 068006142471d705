import type { HelpInfo, Release } from '../../../api/src/contract';
import type { ApiClient } from '../api/client';

/**
 * The release-note and help calls. All public (the release page needs no login), on the portal client's
 * plumbing so errors arrive as the same ApiError.
 */
export type { HelpInfo, Release };

/** What's New lists this many releases at most: a menu, not an archive. */
export const WHATS_NEW_LIMIT = 20;
const WHATS_NEW_RANGE = JSON.stringify([0, WHATS_NEW_LIMIT - 1]);

export function releasesApi(client: ApiClient) {
  return {
    /** The releases a BA is shown (classes `ba` and `all`), newest first. */
    whatsNew: (): Promise<Release[]> =>
      client.publicCall<Release[]>(`/api/releases?${new URLSearchParams({ featureClass: 'ba', range: WHATS_NEW_RANGE })}`),
    release: (versionReleased: string, deviceType: string): Promise<Release> =>
      client.publicCall<Release>(
        `/api/releases/${encodeURIComponent(versionReleased)}/${encodeURIComponent(deviceType)}`,
      ),
    help: (): Promise<HelpInfo> => client.publicCall<HelpInfo>('/api/help'),
  };
}
