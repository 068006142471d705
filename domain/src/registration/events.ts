import type { DomainEvent } from '../shared/events';

/** Event names are wire contracts: add new ones, never rename. */
export type RegistrationStarted = DomainEvent<
  'RegistrationStarted',
  {
    registrationId: string;
    /** Links the registration to its OTP challenge (operational state, never rebuilt from events). */
    challengeId: string;
    mobileNo: string;
    /** Lower case: it becomes the BA Admin's username. */
    email: string;
    companyCode: string;
    expiresAt: string;
  }
>;
export type RegistrationCompleted = DomainEvent<
  'RegistrationCompleted',
  { registrationId: string; baId: string; userId: string }
>;
export type RegistrationExpired = DomainEvent<'RegistrationExpired', { registrationId: string }>;

export type RegistrationEvent = RegistrationStarted | RegistrationCompleted | RegistrationExpired;

export const REGISTRATION_EVENT_TYPES = [
  'RegistrationStarted',
  'RegistrationCompleted',
  'RegistrationExpired',
] as const satisfies readonly RegistrationEvent['type'][];

export const registrationStreamId = (registrationId: string): string => `registration-${registrationId}`;
