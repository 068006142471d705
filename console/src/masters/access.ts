/** Spec 000 §2 "Masters application, one admin role" and §6: MLL-ADMIN and the master-data role MDM. */
export const MASTERS_ROLES: readonly string[] = ['MLL-ADMIN', 'MDM'];

export const mayUseMasters = (roles: readonly string[] | undefined): boolean =>
  (roles ?? []).some((r) => MASTERS_ROLES.includes(r));
