import type { FeatureClass } from '../../../domain/src/releases/fields';
import { API_URL, httpClient } from '../providers/httpClient';
import type { Release } from './types';

/** What's New lists this many releases at most: a menu, not an archive (the Releases list has them all). */
export const WHATS_NEW_LIMIT = 20;

/** GET /api/releases?featureClass=: the releases a user of `audience` is shown, newest first. */
export async function fetchReleasesFor(audience: FeatureClass): Promise<Release[]> {
  const query = new URLSearchParams({ featureClass: audience, range: JSON.stringify([0, WHATS_NEW_LIMIT - 1]) });
  return (await httpClient(`${API_URL}/releases?${query}`)).json as Release[];
}

/** POST /api/releases/:id/withdraw (MLL-ADMIN). */
export async function withdrawRelease(id: string): Promise<{ id: string; message: string }> {
  const { json } = await httpClient(`${API_URL}/releases/${encodeURIComponent(id)}/withdraw`, {
    method: 'POST',
    body: JSON.stringify({}),
  });
  return json as { id: string; message: string };
}
