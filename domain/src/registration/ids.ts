import { v5 as uuidv5 } from 'uuid';

/** Namespace for the ids a registration creates, so every retry of a completion converges on the same BA. */
export const REGISTRATION_ID_NAMESPACE = '2d7c9a41-5e3b-4f6a-9c8d-1b0e7f4a3c25';

/** The BA a registration creates: derived from the registration id (uuid v5), never chosen twice. */
export const baIdForRegistration = (registrationId: string): string =>
  uuidv5(`ba:${registrationId}`, REGISTRATION_ID_NAMESPACE);
