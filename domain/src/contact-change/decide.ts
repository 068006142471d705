import { z } from 'zod';
import type { CommandMetadata, Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { Actor } from '../shared/events';
import { fieldErrors } from '../validation/fields';
import type { ContactChangeCommand } from './commands';
import type { ContactChangeEvent } from './events';
import { contactEditMessages, contactEditSchema } from './fields';

/**
 * One contact change: a link e-mailed to a BA user (started by staff or the BA Admin), an identity check with
 * the registered e-mail id and mobile number (5 tries), the new ones with a code sent to each, then the
 * change itself. Closed for good once completed, expired, locked or cancelled (a newer change for the user).
 */
export const MAX_IDENTITY_ATTEMPTS = 5;
/**
 * Codes sent to new addresses per link. Each send texts and mails addresses the link holder chooses, so it is
 * capped (a resend of the same codes is capped separately by the OTP store).
 */
export const MAX_OTP_SENDS = 5;

export type ContactChangeStatus =
  | 'none'
  | 'requested'
  | 'confirmed'
  | 'otp-sent'
  | 'completed'
  | 'expired'
  | 'locked'
  | 'cancelled';

export type ContactChangeState = {
  status: ContactChangeStatus;
  changeId: string | null;
  baId: string | null;
  userId: string | null;
  tokenHash: string | null;
  requestedBy: Actor | null;
  expiresAt: string | null;
  failedAttempts: number;
  /** Where the latest codes went, and the challenge holding them. */
  newEmail: string | null;
  newMobile: string | null;
  challengeId: string | null;
  /** Challenges sent to new addresses so far (resends not counted). */
  otpSends: number;
};

export const initialContactChangeState: ContactChangeState = {
  status: 'none',
  changeId: null,
  baId: null,
  userId: null,
  tokenHash: null,
  requestedBy: null,
  expiresAt: null,
  failedAttempts: 0,
  newEmail: null,
  newMobile: null,
  challengeId: null,
  otpSends: 0,
};

/** What the link page shows next (GET /api/contact-changes/by-token): identity dialog, edit form, OTP page. */
export type ContactChangeStep = 'identity' | 'edit' | 'otp';

export const isClosed = (s: ContactChangeState): boolean =>
  s.status === 'completed' || s.status === 'expired' || s.status === 'locked' || s.status === 'cancelled';

/** The open step, or null when the link no longer works (closed, or past its time although the timer lags). */
export function stepOf(s: ContactChangeState, now: string): ContactChangeStep | null {
  if (s.status === 'none' || isClosed(s) || isPastExpiry(s, now)) return null;
  if (s.status === 'requested') return 'identity';
  if (s.status === 'confirmed') return 'edit';
  return 'otp';
}

const isPastExpiry = (s: ContactChangeState, now: string): boolean =>
  s.expiresAt !== null && Date.parse(now) >= Date.parse(s.expiresAt);

export const contactChangeRefusals = {
  notFound: 'Contact change not found',
  alreadyExists: 'This contact change already exists',
  /** Spec 000 §4: every way a link stops working reads the same to its holder. */
  linkExpired: contactEditMessages.linkExpired,
  identityFirst: 'Please confirm your registered e-mail id and mobile number first',
  otpFirst: 'Please request the OTP first',
  staleOtp: 'A newer OTP has been sent. Please enter the latest OTP',
  tooManyOtps: 'OTP limit reached for this link. Please contact admin team',
  invalid: 'Please correct the highlighted fields',
} as const;

export function evolveContactChange(state: ContactChangeState, event: ContactChangeEvent): ContactChangeState {
  switch (event.type) {
    case 'ContactChangeRequested': {
      const d = event.data;
      return {
        ...initialContactChangeState,
        status: 'requested',
        changeId: d.changeId,
        baId: d.baId,
        userId: d.userId,
        tokenHash: d.tokenHash,
        requestedBy: d.requestedBy,
        expiresAt: d.expiresAt,
      };
    }
    case 'ContactIdentityCheckFailed':
      return { ...state, failedAttempts: event.data.attempt };
    case 'ContactIdentityConfirmed':
      return { ...state, status: 'confirmed' };
    case 'ContactChangeOtpSent': {
      const d = event.data;
      return {
        ...state,
        status: 'otp-sent',
        newEmail: d.newEmail,
        newMobile: d.newMobile,
        challengeId: d.challengeId,
        otpSends: d.resend ? state.otpSends : state.otpSends + 1,
      };
    }
    case 'ContactChangeCompleted':
      return { ...state, status: 'completed' };
    case 'ContactChangeExpired':
      return { ...state, status: 'expired' };
    case 'ContactChangeLocked':
      return { ...state, status: 'locked' };
    case 'ContactChangeCancelled':
      return { ...state, status: 'cancelled' };
    default: {
      const never: never = event;
      return never;
    }
  }
}

const requestSchema = z.object({
  changeId: z.string().trim().min(1).max(100),
  baId: z.string().trim().min(1).max(100),
  userId: z.string().trim().min(1).max(100),
  tokenHash: z.string().regex(/^[0-9a-f]{64}$/, { error: 'The token hash must be a hex sha256' }),
  requestedBy: z.object({ userId: z.string().min(1), role: z.string().min(1), name: z.string().optional() }),
  expiresAt: z.iso.datetime(),
});

const gone = () => new DomainError('rule', contactChangeRefusals.linkExpired);

export function decideContactChange(
  command: ContactChangeCommand,
  state: ContactChangeState,
  meta: Pick<CommandMetadata, 'at'>,
): ContactChangeEvent[] | DomainError {
  if (command.type === 'RequestContactChange') {
    if (state.status !== 'none') return new DomainError('conflict', contactChangeRefusals.alreadyExists);
    const parsed = requestSchema.safeParse(command);
    if (!parsed.success) return new DomainError('validation', contactChangeRefusals.invalid, fieldErrors(parsed.error));
    const { changeId, baId, userId, tokenHash, requestedBy, expiresAt } = parsed.data;
    if (Date.parse(expiresAt) <= Date.parse(meta.at)) return new DomainError('validation', 'The link must expire in the future', { expiresAt: 'The link must expire in the future' });
    return [{ type: 'ContactChangeRequested', data: { changeId, baId, userId, tokenHash, requestedBy, expiresAt } }];
  }
  if (state.status === 'none') return new DomainError('not_found', contactChangeRefusals.notFound);
  const changeId = state.changeId ?? '';

  // The timer: whatever else happened first wins, and a late timer changes nothing.
  if (command.type === 'ExpireContactChange')
    return isClosed(state) ? [] : [{ type: 'ContactChangeExpired', data: { changeId, expiresAt: state.expiresAt ?? meta.at } }];

  // A newer change for the user: an already closed one stays as it closed (so a repeated cancel is harmless).
  if (command.type === 'CancelContactChange') {
    if (!command.supersededBy) return new DomainError('validation', contactChangeRefusals.invalid, { supersededBy: 'Required' });
    return isClosed(state) ? [] : [{ type: 'ContactChangeCancelled', data: { changeId, supersededBy: command.supersededBy } }];
  }

  // Past its time the link is dead even before the timer has recorded it.
  if (isClosed(state) || isPastExpiry(state, meta.at)) return gone();

  switch (command.type) {
    case 'CheckContactIdentity': {
      if (command.matched) {
        // A reload of the page asks again: a second confirmation changes nothing.
        return state.status === 'requested' ? [{ type: 'ContactIdentityConfirmed', data: { changeId } }] : [];
      }
      const attempt = state.failedAttempts + 1;
      const failed: ContactChangeEvent = { type: 'ContactIdentityCheckFailed', data: { changeId, attempt } };
      return attempt >= MAX_IDENTITY_ATTEMPTS
        ? [failed, { type: 'ContactChangeLocked', data: { changeId, attempts: attempt } }]
        : [failed];
    }
    case 'RecordContactOtpSent': {
      if (state.status === 'requested') return new DomainError('rule', contactChangeRefusals.identityFirst);
      const parsed = contactEditSchema.safeParse({ newEmailId: command.newEmail, newMobileNo: command.newMobile });
      if (!parsed.success) {
        const errors = fieldErrors(parsed.error);
        return new DomainError('validation', Object.values(errors)[0] ?? contactChangeRefusals.invalid, errors);
      }
      if (!command.challengeId) return new DomainError('validation', contactChangeRefusals.invalid, { challengeId: 'Required' });
      if (!command.resend && state.otpSends >= MAX_OTP_SENDS) return new DomainError('rule', contactChangeRefusals.tooManyOtps);
      if (command.resend) {
        if (state.status !== 'otp-sent') return new DomainError('rule', contactChangeRefusals.otpFirst);
        if (command.challengeId !== state.challengeId) return new DomainError('rule', contactChangeRefusals.staleOtp);
      }
      const { newEmailId: newEmail, newMobileNo: newMobile } = parsed.data;
      return [
        {
          type: 'ContactChangeOtpSent',
          data: { changeId, newEmail, newMobile, challengeId: command.challengeId, resend: command.resend },
        },
      ];
    }
    case 'CompleteContactChange': {
      if (state.status === 'requested') return new DomainError('rule', contactChangeRefusals.identityFirst);
      if (state.status !== 'otp-sent') return new DomainError('rule', contactChangeRefusals.otpFirst);
      // Codes of an earlier challenge prove nothing about the addresses the latest codes went to.
      if (command.challengeId !== state.challengeId) return new DomainError('rule', contactChangeRefusals.staleOtp);
      return [
        {
          type: 'ContactChangeCompleted',
          data: { changeId, userId: state.userId ?? '', newEmail: state.newEmail ?? '', newMobile: state.newMobile ?? '' },
        },
      ];
    }
    default: {
      const never: never = command;
      return never;
    }
  }
}

export const contactChangeDecider: Decider<ContactChangeCommand, ContactChangeEvent, ContactChangeState> = {
  initialState: initialContactChangeState,
  evolve: evolveContactChange,
  decide: (command, state, meta) => decideContactChange(command, state, meta),
};
