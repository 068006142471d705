import type { RegistrationEvent } from './events';

/** 'none' = not started; 'started' waits for both codes; 'completed' and 'expired' are final. */
export type RegistrationStatus = 'none' | 'started' | 'completed' | 'expired';

export type RegistrationState = {
  registrationId: string | null;
  challengeId: string | null;
  status: RegistrationStatus;
  mobileNo: string | null;
  email: string | null;
  companyCode: string | null;
  expiresAt: string | null;
  baId: string | null;
  userId: string | null;
};

export const initialState: RegistrationState = {
  registrationId: null,
  challengeId: null,
  status: 'none',
  mobileNo: null,
  email: null,
  companyCode: null,
  expiresAt: null,
  baId: null,
  userId: null,
};

export function evolve(state: RegistrationState, event: RegistrationEvent): RegistrationState {
  switch (event.type) {
    case 'RegistrationStarted': {
      const { registrationId, challengeId, mobileNo, email, companyCode, expiresAt } = event.data;
      return { ...state, registrationId, challengeId, mobileNo, email, companyCode, expiresAt, status: 'started' };
    }
    case 'RegistrationCompleted':
      return { ...state, status: 'completed', baId: event.data.baId, userId: event.data.userId };
    case 'RegistrationExpired':
      return { ...state, status: 'expired' };
    default: {
      const never: never = event;
      return never;
    }
  }
}
