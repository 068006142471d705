import type { Actor } from '../shared/events';
import { givenWhenThen, metaFor } from '../shared/testing';
import { messages } from '../validation/fields';
import type { RegistrationCommand } from './commands';
import { adminNameFromEmail, registrationDecider, registrationForm, registrationMessages } from './decide';
import type { RegistrationEvent } from './events';
import { baIdForRegistration } from './ids';

const given = givenWhenThen(registrationDecider);
const registrant = metaFor({ userId: 'registration-r-1', role: 'Registrant' } satisfies Actor);
const timer = metaFor({ userId: 'system', role: 'system', name: 'Registration expiry' } satisfies Actor);

const registrationId = 'r-1';
const expiresAt = '2026-01-15T10:30:00.000Z';
const start: RegistrationCommand = {
  type: 'StartRegistration',
  registrationId,
  challengeId: 'c-1',
  mobileNo: '9876543210',
  email: 'Owner@Acme.Test',
  companyCode: '1000',
  expiresAt,
};
const complete: RegistrationCommand = { type: 'CompleteRegistration', baId: 'ba-1', userId: 'u-1' };
const expire: RegistrationCommand = { type: 'ExpireRegistration' };

const started: RegistrationEvent = {
  type: 'RegistrationStarted',
  data: {
    registrationId,
    challengeId: 'c-1',
    mobileNo: '9876543210',
    email: 'owner@acme.test',
    companyCode: '1000',
    expiresAt,
  },
};
const completed: RegistrationEvent = {
  type: 'RegistrationCompleted',
  data: { registrationId, baId: 'ba-1', userId: 'u-1' },
};
const expired: RegistrationEvent = { type: 'RegistrationExpired', data: { registrationId } };

describe('StartRegistration', () => {
  test('given nothing, when started, then RegistrationStarted with the e-mail in lower case', () => {
    given([]).when(start, registrant).then([started]);
  });

  test('given a started registration, when started again, then conflict', () => {
    given([started]).when(start, registrant).thenError('conflict', { message: registrationMessages.alreadyStarted });
  });

  test('given nothing, when the company is not in the company list, then the spec message', () => {
    given([])
      .when({ ...start, companyCode: '9999' }, registrant)
      .thenError('validation', { errors: { companyCode: registrationMessages.unknownCompany } });
  });

  test('given a company the masters hold (active), when started, then it is recorded without the reference', () => {
    const [event] = given([])
      .when({ ...start, companyCode: '3000', company: { id: '3000', status: 'active' } }, registrant)
      .result as RegistrationEvent[];
    expect(event).toEqual({ ...started, data: { ...started.data, companyCode: '3000' } });
  });

  test.each([
    ['retired', { id: '1000', status: 'inactive' as const }],
    ['not in the masters', null],
  ])('given nothing, when the company is %s, then the spec message', (_label, company) => {
    given([])
      .when({ ...start, company }, registrant)
      .thenError('validation', { errors: { companyCode: registrationMessages.unknownCompany } });
  });

  test('given nothing, when mobile and e-mail break their patterns, then the spec messages per field', () => {
    given([])
      .when({ ...start, mobileNo: '5876543210', email: 'not-an-email' }, registrant)
      .thenError('validation', { errors: { mobileNo: messages.mobile, email: messages.email } });
  });
});

describe('CompleteRegistration', () => {
  test('given a started registration, when completed, then RegistrationCompleted with the BA and user ids', () => {
    given([started]).when(complete, registrant).then([completed]);
  });

  test('given an expired registration, when completed, then refused as expired', () => {
    given([started, expired]).when(complete, registrant).thenError('rule', { message: registrationMessages.expired });
  });

  test('given a completed registration, when completed again, then refused: one user and one BA per registration', () => {
    given([started, completed])
      .when(complete, registrant)
      .thenError('rule', { message: registrationMessages.completed });
  });

  test('given nothing, when completed, then not found', () => {
    given([]).when(complete, registrant).thenError('not_found', { message: registrationMessages.notFound });
  });

  test('given a started registration, when the ids are missing, then validation', () => {
    given([started])
      .when({ type: 'CompleteRegistration', baId: ' ', userId: '' }, registrant)
      .thenError('validation', { errors: { baId: messages.required, userId: messages.required } });
  });
});

describe('ExpireRegistration', () => {
  test('given a started registration, when its timer fires, then RegistrationExpired', () => {
    given([started]).when(expire, timer).then([expired]);
  });

  test('given a completed registration, when the timer fires, then refused: a completion is never undone', () => {
    given([started, completed]).when(expire, timer).thenError('rule', { message: registrationMessages.completed });
  });

  test('given an expired registration, when the timer fires again, then nothing changes', () => {
    given([started, expired]).when(expire, timer).thenNothing();
  });

  test('given nothing, when expired, then not found', () => {
    given([]).when(expire, timer).thenError('not_found');
  });
});

describe('state', () => {
  test('the state follows the events: challenge kept, then the created ids', () => {
    expect(given([started]).state).toMatchObject({ status: 'started', challengeId: 'c-1', email: 'owner@acme.test' });
    expect(given([started, completed]).state).toMatchObject({ status: 'completed', baId: 'ba-1', userId: 'u-1' });
    expect(given([started, expired]).state.status).toBe('expired');
  });
});

describe('registration form and helpers', () => {
  test('the form trims the mobile, lower-cases the e-mail and requires a company code (the masters say which exist)', () => {
    expect(registrationForm.parse({ mobileNo: ' 9876543210 ', email: ' A@B.Test ', companyCode: '2000' })).toEqual({
      mobileNo: '9876543210',
      email: 'a@b.test',
      companyCode: '2000',
    });
    const refused = registrationForm.safeParse({ mobileNo: '98765', email: 'x', companyCode: '' });
    expect(refused.success).toBe(false);
    const malformed = registrationForm.safeParse({ mobileNo: '9876543210', email: 'a@b.test', companyCode: '10000' });
    expect(malformed.success ? {} : malformed.error.issues.map((i) => i.message)).toEqual([registrationMessages.unknownCompany]);
  });

  test('the BA Admin is named after the e-mail local part, without a leading formula character', () => {
    expect(adminNameFromEmail('ravi.kumar@acme.test')).toBe('ravi.kumar');
    expect(adminNameFromEmail('+-ops@acme.test')).toBe('ops');
    expect(adminNameFromEmail("'@acme.test")).toBe('BA Admin');
  });

  test('the BA id is derived from the registration id: the same every time, different per registration', () => {
    expect(baIdForRegistration('r-1')).toBe(baIdForRegistration('r-1'));
    expect(baIdForRegistration('r-1')).not.toBe(baIdForRegistration('r-2'));
    expect(baIdForRegistration('r-1')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
