import { givenWhenThen, metaFor, TEST_AT } from '../shared/testing';
import type { Actor } from '../shared/events';
import type { ContactChangeCommand } from './commands';
import {
  contactChangeDecider,
  contactChangeRefusals,
  MAX_IDENTITY_ATTEMPTS,
  MAX_OTP_SENDS,
  stepOf,
  type ContactChangeState,
} from './decide';
import type { ContactChangeEvent } from './events';
import { contactEditMessages, contactEditSchema, identityMatches } from './fields';
import { fold } from '../shared/decider';

const given = givenWhenThen(contactChangeDecider);
const baAdmin: Actor = { userId: 'u-ba-admin', role: 'BA Admin', name: 'Asha Rao' };
const system: Actor = { userId: 'system', role: 'system', name: 'Contact change timer' };
const asAdmin = metaFor(baAdmin);
const asUser = metaFor({ userId: 'u-ba-user', role: 'BA User' });
const later = (hours: number) => new Date(Date.parse(TEST_AT) + hours * 3_600_000).toISOString();
const changeId = 'c-1';
const tokenHash = 'a'.repeat(64);
const expiresAt = later(24);

const request: ContactChangeCommand = {
  type: 'RequestContactChange',
  changeId,
  baId: 'ba-1',
  userId: 'u-ba-user',
  tokenHash,
  requestedBy: baAdmin,
  expiresAt,
};
const requested: ContactChangeEvent = {
  type: 'ContactChangeRequested',
  data: { changeId, baId: 'ba-1', userId: 'u-ba-user', tokenHash, requestedBy: baAdmin, expiresAt },
};
const confirmed: ContactChangeEvent = { type: 'ContactIdentityConfirmed', data: { changeId } };
const failed = (attempt: number): ContactChangeEvent => ({ type: 'ContactIdentityCheckFailed', data: { changeId, attempt } });
const otpSent = (challengeId = 'ch-1', resend = false): ContactChangeEvent => ({
  type: 'ContactChangeOtpSent',
  data: { changeId, newEmail: 'new@acme.test', newMobile: '9123456780', challengeId, resend },
});
const sendOtp = (over: Partial<Extract<ContactChangeCommand, { type: 'RecordContactOtpSent' }>> = {}): ContactChangeCommand => ({
  type: 'RecordContactOtpSent',
  newEmail: 'New@Acme.test',
  newMobile: '9123456780',
  challengeId: 'ch-1',
  resend: false,
  ...over,
});
const stateAfter = (events: ContactChangeEvent[]): ContactChangeState => fold(contactChangeDecider, events);

describe('RequestContactChange', () => {
  it('opens the change with the token’s hash and the link’s expiry', () => {
    given([]).when(request, asAdmin).then([requested]);
    expect(stepOf(stateAfter([requested]), TEST_AT)).toBe('identity');
  });

  it('refuses a second request on the same stream and a malformed token hash', () => {
    given([requested]).when(request, asAdmin).thenError('conflict', { message: contactChangeRefusals.alreadyExists });
    given([]).when({ ...request, tokenHash: 'secret-in-clear' }, asAdmin).thenError('validation', { errors: { tokenHash: 'The token hash must be a hex sha256' } });
  });

  it('refuses a link that would already be expired', () => {
    given([]).when({ ...request, expiresAt: TEST_AT }, asAdmin).thenError('validation');
  });
});

describe('CheckContactIdentity', () => {
  it('confirms the identity once; a reload that confirms again changes nothing', () => {
    given([requested]).when({ type: 'CheckContactIdentity', matched: true }, asUser).then([confirmed]);
    given([requested, confirmed]).when({ type: 'CheckContactIdentity', matched: true }, asUser).thenNothing();
    expect(stepOf(stateAfter([requested, confirmed]), TEST_AT)).toBe('edit');
  });

  it('counts failed tries', () => {
    given([requested]).when({ type: 'CheckContactIdentity', matched: false }, asUser).then([failed(1)]);
    given([requested, failed(1), failed(2)]).when({ type: 'CheckContactIdentity', matched: false }, asUser).then([failed(3)]);
  });

  it(`locks the link on the ${MAX_IDENTITY_ATTEMPTS}th failed try, for good`, () => {
    const four = [requested, failed(1), failed(2), failed(3), failed(4)];
    given(four)
      .when({ type: 'CheckContactIdentity', matched: false }, asUser)
      .then([failed(5), { type: 'ContactChangeLocked', data: { changeId, attempts: 5 } }]);
    const locked = [...four, failed(5), { type: 'ContactChangeLocked', data: { changeId, attempts: 5 } } as ContactChangeEvent];
    given(locked).when({ type: 'CheckContactIdentity', matched: true }, asUser).thenError('rule', { message: contactEditMessages.linkExpired });
    expect(stepOf(stateAfter(locked), TEST_AT)).toBeNull();
  });

  it('refuses every step once the link’s time has passed, even before the timer has recorded it', () => {
    given([requested]).when({ type: 'CheckContactIdentity', matched: true }, metaFor(baAdmin, { at: expiresAt })).thenError('rule', {
      message: contactEditMessages.linkExpired,
    });
    expect(stepOf(stateAfter([requested]), expiresAt)).toBeNull();
  });

  it('answers not found for a change that was never requested', () => {
    given([]).when({ type: 'CheckContactIdentity', matched: true }, asUser).thenError('not_found');
  });
});

describe('RecordContactOtpSent', () => {
  it('needs the identity first', () => {
    given([requested]).when(sendOtp(), asUser).thenError('rule', { message: contactChangeRefusals.identityFirst });
  });

  it('records where the codes went (lower-cased e-mail id), never the codes', () => {
    given([requested, confirmed]).when(sendOtp(), asUser).then([otpSent()]);
    expect(stepOf(stateAfter([requested, confirmed, otpSent()]), TEST_AT)).toBe('otp');
  });

  it('lets the user go back and send codes to other addresses', () => {
    given([requested, confirmed, otpSent('ch-1')])
      .when(sendOtp({ challengeId: 'ch-2', newMobile: '8123456780' }), asUser)
      .then([{ type: 'ContactChangeOtpSent', data: { changeId, newEmail: 'new@acme.test', newMobile: '8123456780', challengeId: 'ch-2', resend: false } }]);
  });

  it('records a resend of the current challenge only', () => {
    given([requested, confirmed, otpSent()]).when(sendOtp({ resend: true }), asUser).then([otpSent('ch-1', true)]);
    given([requested, confirmed, otpSent()]).when(sendOtp({ resend: true, challengeId: 'ch-0' }), asUser).thenError('rule', {
      message: contactChangeRefusals.staleOtp,
    });
    given([requested, confirmed]).when(sendOtp({ resend: true }), asUser).thenError('rule', { message: contactChangeRefusals.otpFirst });
  });

  it(`sends codes to new addresses at most ${MAX_OTP_SENDS} times per link`, () => {
    const sent = Array.from({ length: MAX_OTP_SENDS }, (_, i) => otpSent(`ch-${i}`));
    given([requested, confirmed, ...sent]).when(sendOtp({ challengeId: 'ch-9' }), asUser).thenError('rule', {
      message: contactChangeRefusals.tooManyOtps,
    });
    // A resend of the latest codes is still possible (the OTP store caps those).
    given([requested, confirmed, ...sent]).when(sendOtp({ challengeId: `ch-${MAX_OTP_SENDS - 1}`, resend: true }), asUser).then([
      otpSent(`ch-${MAX_OTP_SENDS - 1}`, true),
    ]);
  });

  it('refuses invalid addresses with the spec’s contact-edit messages', () => {
    given([requested, confirmed])
      .when(sendOtp({ newEmail: 'not-an-email', newMobile: '5123456789' }), asUser)
      .thenError('validation', { errors: { newEmailId: contactEditMessages.email, newMobileNo: contactEditMessages.mobile } });
  });
});

describe('CompleteContactChange', () => {
  it('completes with the addresses the latest codes went to', () => {
    given([requested, confirmed, otpSent('ch-1'), otpSent('ch-2')])
      .when({ type: 'CompleteContactChange', challengeId: 'ch-2' }, asUser)
      .then([{ type: 'ContactChangeCompleted', data: { changeId, userId: 'u-ba-user', newEmail: 'new@acme.test', newMobile: '9123456780' } }]);
  });

  it('refuses the codes of an earlier challenge, and completion before any code was sent', () => {
    given([requested, confirmed, otpSent('ch-1'), otpSent('ch-2')])
      .when({ type: 'CompleteContactChange', challengeId: 'ch-1' }, asUser)
      .thenError('rule', { message: contactChangeRefusals.staleOtp });
    given([requested, confirmed]).when({ type: 'CompleteContactChange', challengeId: 'ch-1' }, asUser).thenError('rule', {
      message: contactChangeRefusals.otpFirst,
    });
  });

  it('refuses a second completion (the link is used up)', () => {
    const done: ContactChangeEvent = {
      type: 'ContactChangeCompleted',
      data: { changeId, userId: 'u-ba-user', newEmail: 'new@acme.test', newMobile: '9123456780' },
    };
    given([requested, confirmed, otpSent(), done]).when({ type: 'CompleteContactChange', challengeId: 'ch-1' }, asUser).thenError('rule', {
      message: contactEditMessages.linkExpired,
    });
  });
});

describe('ExpireContactChange (the timer)', () => {
  const timer = metaFor(system, { at: expiresAt });

  it('expires an open change', () => {
    given([requested, confirmed]).when({ type: 'ExpireContactChange' }, timer).then([{ type: 'ContactChangeExpired', data: { changeId, expiresAt } }]);
  });

  it('changes nothing once the change is closed', () => {
    const done: ContactChangeEvent = {
      type: 'ContactChangeCompleted',
      data: { changeId, userId: 'u-ba-user', newEmail: 'new@acme.test', newMobile: '9123456780' },
    };
    given([requested, confirmed, otpSent(), done]).when({ type: 'ExpireContactChange' }, timer).thenNothing();
  });
});

describe('CancelContactChange (a newer change for the same user)', () => {
  const cancel: ContactChangeCommand = { type: 'CancelContactChange', supersededBy: 'c-2' };
  const cancelled: ContactChangeEvent = { type: 'ContactChangeCancelled', data: { changeId, supersededBy: 'c-2' } };

  it('closes an open change at any step: its link stops working', () => {
    given([requested]).when(cancel, asAdmin).then([cancelled]);
    given([requested, confirmed, otpSent()]).when(cancel, asAdmin).then([cancelled]);
    expect(stepOf(stateAfter([requested, confirmed, cancelled]), TEST_AT)).toBeNull();
    given([requested, cancelled]).when({ type: 'CheckContactIdentity', matched: true }, asUser).thenError('rule', {
      message: contactEditMessages.linkExpired,
    });
    // The timer, firing later, changes nothing.
    given([requested, cancelled]).when({ type: 'ExpireContactChange' }, metaFor(system, { at: expiresAt })).thenNothing();
  });

  it('changes nothing once the change is closed (a repeated cancel, a completed change)', () => {
    given([requested, cancelled]).when(cancel, asAdmin).thenNothing();
    const done: ContactChangeEvent = {
      type: 'ContactChangeCompleted',
      data: { changeId, userId: 'u-ba-user', newEmail: 'new@acme.test', newMobile: '9123456780' },
    };
    given([requested, confirmed, otpSent(), done]).when(cancel, asAdmin).thenNothing();
  });

  it('needs the newer change’s id', () => {
    given([requested]).when({ type: 'CancelContactChange', supersededBy: '' }, asAdmin).thenError('validation');
  });
});

describe('contact edit fields (spec 000 §5)', () => {
  it('checks the e-mail id and the mobile number with the page’s own messages', () => {
    expect(contactEditSchema.safeParse({ newEmailId: ' Ravi@Acme.TEST ', newMobileNo: '9876543210' })).toEqual({
      success: true,
      data: { newEmailId: 'ravi@acme.test', newMobileNo: '9876543210' },
    });
    const bad = contactEditSchema.safeParse({ newEmailId: '=cmd@acme.test', newMobileNo: '98765' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.message).sort()).toEqual([contactEditMessages.email, contactEditMessages.mobile].sort());
  });

  it('matches the identity: e-mail case-insensitively, mobile exactly', () => {
    const registered = { email: 'ravi@acme.test', mobile: '9876543210' };
    expect(identityMatches(registered, { emailId: 'RAVI@Acme.test', mobileNo: '9876543210' })).toBe(true);
    expect(identityMatches(registered, { emailId: 'ravi@acme.test', mobileNo: '9876543211' })).toBe(false);
    expect(identityMatches(registered, { emailId: 'ravi2@acme.test', mobileNo: '9876543210' })).toBe(false);
    expect(identityMatches({ email: 'ravi@acme.test', mobile: null }, { emailId: 'ravi@acme.test', mobileNo: '' })).toBe(false);
  });
});
