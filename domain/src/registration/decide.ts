import { z } from 'zod';
import type { AppAccess } from '../identity/applications';
import { companyRefusal } from '../masters/references';
import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { fieldErrors, fields, messages, patterns } from '../validation/fields';
import type { RegistrationCommand } from './commands';
import type { RegistrationEvent } from './events';
import { evolve, initialState, type RegistrationState } from './state';

/**
 * Self-registration of a business associate (spec 000 §4 "Registration"): mobile, e-mail and company code,
 * then one code by SMS and one by e-mail. The registration stream records only the decision points; the
 * account and the BA it creates live on their own streams (user-…, ba-…).
 */
export const registrationMessages = {
  /** Never says which of the two is taken, or whose it is. */
  alreadyRegistered: 'This mobile number or e-mail id is already registered. Please sign in or use Forgot Password',
  /** Spec 000 §5 "Registration: the chosen company must be in the company list". */
  unknownCompany: 'Please select a company from the list',
  notFound: 'This registration was not found. Please register again',
  expired: 'This registration has expired. Please register again',
  completed: 'This registration is already complete. Please sign in',
  alreadyStarted: 'This registration has already started',
  invalid: 'Please correct the highlighted fields',
} as const;


/**
 * What a registered BA Admin may use: the BA's own onboarding, RFPs, Bill-Hub and the performance dashboards
 * (issue 5). Complaints is a link outside the portal; Masters and SAP are staff applications.
 */
export const BA_ADMIN_APPLICATIONS = [
  { appId: 'onboard', roleName: 'BA Admin' },
  { appId: 'RFP', roleName: 'BA Admin' },
  { appId: 'BillHub', roleName: 'BA Admin' },
  { appId: 'Dashboard', roleName: 'BA Admin' },
] as const satisfies readonly AppAccess[];

/**
 * The registration form's fields, shared by the API and the portal's register tab. The company code is checked
 * for its shape here; whether the Companies master holds it (active) is asked by the API and decided by the
 * activity (`StartRegistration.company`).
 */
export const registrationForm = z.object({
  mobileNo: z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), fields.mobile),
  email: z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), fields.email),
  companyCode: z
    .string({ error: registrationMessages.unknownCompany })
    .trim()
    .regex(/^[A-Z0-9]{1,4}$/, { error: registrationMessages.unknownCompany }),
});
export type RegistrationForm = z.output<typeof registrationForm>;

const startSchema = registrationForm.extend({
  registrationId: z.string().trim().min(1, { error: messages.required }),
  challengeId: z.string().trim().min(1, { error: messages.required }),
  expiresAt: z.iso.datetime(),
});

const ids = z.object({
  baId: z.string().trim().min(1, { error: messages.required }),
  userId: z.string().trim().min(1, { error: messages.required }),
});

/**
 * The BA Admin's display name until someone gives a better one: the e-mail's local part (the only name a
 * registration knows; spec 000 §4 asks for no name). Characters that would read as a spreadsheet formula are
 * dropped from its start, as the text rule requires.
 */
export function adminNameFromEmail(email: string): string {
  let local = email.trim().split('@')[0] ?? '';
  while (local !== '' && patterns.forbiddenLeading.test(local)) local = local.slice(1);
  return local.trim() === '' ? 'BA Admin' : local;
}

/**
 * Why a registration in this state takes no completion or expiry, or null while it waits. Reads the state
 * only (no field rules), so the workflow may ask it in replayed code.
 */
export function refusalFor(state: RegistrationState): DomainError | null {
  switch (state.status) {
    case 'none':
      return new DomainError('not_found', registrationMessages.notFound);
    case 'expired':
      return new DomainError('rule', registrationMessages.expired);
    case 'completed':
      return new DomainError('rule', registrationMessages.completed);
    default:
      return null;
  }
}

export function decide(command: RegistrationCommand, state: RegistrationState): RegistrationEvent[] | DomainError {
  switch (command.type) {
    case 'StartRegistration': {
      if (state.status !== 'none') return new DomainError('conflict', registrationMessages.alreadyStarted);
      const parsed = startSchema.safeParse(command);
      const errors = parsed.success ? {} : fieldErrors(parsed.error);
      // Resolved by the deciding activity; absent in a decision replayed from before the masters (legacy-catalog.ts).
      const unknownCompany = typeof command.companyCode === 'string' ? companyRefusal(command.companyCode, command.company) : null;
      if (unknownCompany && !errors.companyCode) errors.companyCode = unknownCompany;
      if (!parsed.success || Object.keys(errors).length > 0)
        return new DomainError('validation', registrationMessages.invalid, errors);
      const { registrationId, challengeId, mobileNo, email, companyCode, expiresAt } = parsed.data;
      return [
        {
          type: 'RegistrationStarted',
          data: { registrationId, challengeId, mobileNo, email, companyCode, expiresAt },
        },
      ];
    }
    case 'CompleteRegistration': {
      const refused = refusalFor(state);
      if (refused) return refused;
      const parsed = ids.safeParse(command);
      if (!parsed.success)
        return new DomainError('validation', registrationMessages.invalid, fieldErrors(parsed.error));
      const registrationId = state.registrationId ?? '';
      return [{ type: 'RegistrationCompleted', data: { registrationId, ...parsed.data } }];
    }
    case 'ExpireRegistration': {
      // A timer firing twice (or after a replayed expiry) changes nothing.
      if (state.status === 'expired') return [];
      const refused = refusalFor(state);
      if (refused) return refused;
      return [{ type: 'RegistrationExpired', data: { registrationId: state.registrationId ?? '' } }];
    }
    default: {
      const never: never = command;
      return never;
    }
  }
}

export const registrationDecider: Decider<RegistrationCommand, RegistrationEvent, RegistrationState> = {
  initialState,
  evolve,
  decide: (command, state) => decide(command, state),
};
