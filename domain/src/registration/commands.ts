import type { ReferencedItem } from '../masters/references';

/** Imperative names; the API parses raw input with zod, the decider checks again (no path skips validation). */
export type StartRegistration = {
  type: 'StartRegistration';
  registrationId: string;
  /** The OTP challenge holding the SMS and e-mail codes (api/src/identity/store/otp.ts). */
  challengeId: string;
  mobileNo: string;
  email: string;
  companyCode: string;
  /** When the registration lapses unless completed (ISO), decided by the workflow from REGISTRATION_TTL. */
  expiresAt: string;
  /**
   * The company as the Companies master holds it (null: none), resolved by the deciding activity. Absent in
   * decisions replayed from before the masters, which checked the frozen catalogue (legacy-catalog.ts).
   */
  company?: ReferencedItem | null;
};
/** Both codes matched: the BA Admin user and the BA exist (or are being created) under these ids. */
export type CompleteRegistration = { type: 'CompleteRegistration'; baId: string; userId: string };
/** Sent by the workflow's timer, never by a person. */
export type ExpireRegistration = { type: 'ExpireRegistration' };

export type RegistrationCommand = StartRegistration | CompleteRegistration | ExpireRegistration;
