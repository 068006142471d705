/** Release notes are published by MLL-ADMIN alone (the API enforces the same rule). */
export const RELEASE_ADMIN_ROLE = 'MLL-ADMIN';

export const mayManageReleases = (roles: readonly string[] | undefined): boolean =>
  (roles ?? []).includes(RELEASE_ADMIN_ROLE);
