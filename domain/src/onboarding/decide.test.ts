import { STAFF_ROLES } from '../identity/roles';
import { fold } from '../shared/decider';
import type { Actor } from '../shared/events';
import { givenWhenThen, metaFor } from '../shared/testing';
import { messages } from '../validation/fields';
import type { OnboardingCommand } from './commands';
import { onboardingDecider, refusals, WELCOME_MESSAGE } from './decide';
import { REQUIRED_FOR_SUBMIT, type CompanyDetails } from './details';
import type { OnboardingEvent } from './events';

const given = givenWhenThen(onboardingDecider);
const stateAfter = (events: OnboardingEvent[]) => fold(onboardingDecider, events);

// Actors ----------------------------------------------------------------------------------------------------
type Meta = ReturnType<typeof metaFor>;
const as = (userId: string, role: string): Meta => metaFor({ userId, role } satisfies Actor);
const baAdmin = as('u-ba-admin', 'BA Admin');
const baUser = as('u-ba-user', 'BA User');
const system = as('system', 'system');
const procurement = as('u-procurement', 'MLL Procurement');
const procurement2 = as('u-procurement-2', 'MLL Procurement');
const commercial = as('u-commercial', 'MLL Commercial');
const accountsHead = as('u-accounts-head', 'MLL Accounts_HEAD');
const admin = as('u-admin', 'MLL-ADMIN');
const admin2 = as('u-admin-2', 'MLL-ADMIN');
const auditor = as('u-auditor', 'Auditor');
const staffAndAuditor = [...STAFF_ROLES, 'Auditor'];

// Details ---------------------------------------------------------------------------------------------------
const baId = '42';
const details: CompanyDetails = {
  companyName: 'Acme Logistics Pvt Ltd',
  panNumber: 'AAACA1234Z',
  contactPersonName: 'Ravi Kumar',
  cinNumber: null,
  serviceId: 1,
  stateId: 27,
  cityId: 2701,
  addressLine1: '4 Dock Road',
  addressLine2: null,
  pinCode: '400001',
  companyLandline: null,
  contactPersonMobileNumber: '9876543210',
  ownFleet: 12,
  attachedFleet: null,
};

// Commands --------------------------------------------------------------------------------------------------
const create: OnboardingCommand = {
  type: 'CreateBusinessAssociate',
  baId,
  companyCode: '1000',
  adminUserId: 'u-ba-admin',
  mobileNo: '9876543210',
  email: 'ba.admin@demo.test',
};
const save = (input: unknown): OnboardingCommand => ({ type: 'SaveCompanyDetails', details: input });
const submit: OnboardingCommand = { type: 'SubmitOnboarding' };
const approve = (stage: number, remarks?: string | null): OnboardingCommand => ({
  type: 'ApproveReviewStage',
  stage,
  remarks,
});
const reject = (stage: number, remarks?: string | null): OnboardingCommand => ({
  type: 'RejectReviewStage',
  stage,
  remarks,
});
const DUE_AT = '2026-01-17T10:00:00.000Z';
const markOverdue = (submission: number, stage: 1 | 2): OnboardingCommand => ({
  type: 'MarkReviewOverdue',
  submission,
  stage,
  dueAt: DUE_AT,
});

// Events ----------------------------------------------------------------------------------------------------
const created: OnboardingEvent = {
  type: 'BusinessAssociateCreated',
  data: {
    baId,
    companyCode: '1000',
    adminUserId: 'u-ba-admin',
    mobileNo: '9876543210',
    email: 'ba.admin@demo.test',
  },
};
const saved = (d: CompanyDetails = details): OnboardingEvent => ({
  type: 'CompanyDetailsSaved',
  data: { baId, details: d, changes: {} },
});
const submitted = (submission = 1): OnboardingEvent => ({
  type: 'OnboardingSubmitted',
  data: { baId, submission, resubmission: submission > 1 },
});
const approved = (
  stage: 1 | 2,
  by: Meta,
  submission = 1,
  remarks: string | null = null,
): OnboardingEvent => ({
  type: 'ReviewStageApproved',
  data: { baId, submission, stage, remarks, approvedBy: by.actor.userId, role: by.actor.role },
});
const verified = (submission = 1): OnboardingEvent => ({
  type: 'BusinessAssociateVerified',
  data: { baId, submission, welcomeMessage: WELCOME_MESSAGE },
});
const rejected = (stage: 1 | 2, by: Meta, remarks: string, submission = 1): OnboardingEvent => ({
  type: 'OnboardingRejected',
  data: { baId, submission, stage, remarks, rejectedBy: by.actor.userId, role: by.actor.role },
});
const overdue = (submission: number, stage: 1 | 2): OnboardingEvent => ({
  type: 'ReviewOverdue',
  data: { baId, submission, stage, dueAt: DUE_AT },
});

// Histories -------------------------------------------------------------------------------------------------
const pending = [created, saved()];
const atStage1 = [...pending, submitted()];
const atStage2 = [...atStage1, approved(1, procurement)];
const verifiedBa = [...atStage2, approved(2, commercial), verified()];
const rejectedAtStage2 = [...atStage2, rejected(2, commercial, 'GST certificate is missing')];

describe('CreateBusinessAssociate', () => {
  test('given no BA, when created, then BusinessAssociateCreated with its company and contacts', () => {
    given([]).when(create, system).then([created]);
  });

  test('given the BA exists, when created again, then conflict', () => {
    given([created]).when(create, system).thenError('conflict', { message: refusals.alreadyExists });
  });

  test('given no BA, when created without contacts, then they are recorded as null', () => {
    given([])
      .when({ ...create, mobileNo: null, email: null, adminUserId: null }, system)
      .then([
        {
          type: 'BusinessAssociateCreated',
          data: { baId, companyCode: '1000', adminUserId: null, mobileNo: null, email: null },
        },
      ]);
  });

  test.each([
    ['an unlisted company', { companyCode: '9999' }, 'companyCode', 'Please select a company from the list'],
    ['an invalid mobile number', { mobileNo: '1234567890' }, 'mobileNo', messages.mobile],
    ['an invalid e-mail id', { email: 'not-an-email' }, 'email', messages.email],
    ['an empty BA id', { baId: ' ' }, 'baId', messages.required],
  ])('given no BA, when created with %s, then validation on that field', (_label, change, field, message) => {
    given([])
      .when({ ...create, ...change } as OnboardingCommand, system)
      .thenError('validation', { errors: { [field]: message } });
  });
});

describe('SaveCompanyDetails', () => {
  describe('given a new BA', () => {
    test('when the BA Admin saves details, then they are recorded, every filled field a change', () => {
      const filled = Object.entries(details).filter(([, v]) => v !== null);
      const changes = Object.fromEntries(filled.map(([f, v]) => [f, { before: null, after: v }]));
      given([created])
        .when(save(details), baAdmin)
        .then([{ type: 'CompanyDetailsSaved', data: { baId, details, changes } }]);
    });

    test.each([
      ['BA User', baUser],
      ['system', system],
    ])('when %s saves details, then they are recorded', (_label, meta) => {
      const [event] = given([created]).when(save(details), meta).result as OnboardingEvent[];
      expect(event).toMatchObject({ type: 'CompanyDetailsSaved', data: { details } });
    });

    test.each(staffAndAuditor)('when %s saves details, then forbidden', (role) => {
      given([created])
        .when(save(details), as('u-staff', role))
        .thenError('forbidden', { message: refusals.baOnly });
    });

    test('when details are invalid, then validation with field errors', () => {
      given([created])
        .when(save({ ...details, panNumber: 'ABC', contactPersonMobileNumber: '123' }), baAdmin)
        .thenError('validation', {
          message: 'Please correct the highlighted fields',
          errors: { panNumber: messages.pan, contactPersonMobileNumber: messages.mobile },
        });
    });

    test('when the city lies in another state, then validation on cityId', () => {
      given([created])
        .when(save({ ...details, stateId: 29, cityId: 2701 }), baAdmin)
        .thenError('validation', { errors: { cityId: 'The city does not belong to the selected state' } });
    });

    test('when a draft with gaps is saved, then it is recorded (completeness is checked on submit)', () => {
      const { result } = given([created]).when(save({ companyName: 'Acme' }), baAdmin);
      const [event] = result as OnboardingEvent[];
      expect(event).toMatchObject({
        type: 'CompanyDetailsSaved',
        data: { details: { companyName: 'Acme', panNumber: null } },
      });
    });
  });

  describe('given saved details', () => {
    test('when fields change, then only those fields carry before and after', () => {
      given(pending)
        .when(save({ ...details, pinCode: '400002', addressLine2: 'Gate 2' }), baAdmin)
        .then([
          {
            type: 'CompanyDetailsSaved',
            data: {
              baId,
              details: { ...details, pinCode: '400002', addressLine2: 'Gate 2' },
              changes: {
                pinCode: { before: '400001', after: '400002' },
                addressLine2: { before: null, after: 'Gate 2' },
              },
            },
          },
        ]);
    });

    test('when a field is emptied, then its change goes to null', () => {
      const { result } = given(pending).when(save({ ...details, ownFleet: '' }), baAdmin);
      const [event] = result as OnboardingEvent[];
      expect(event?.data).toMatchObject({ changes: { ownFleet: { before: 12, after: null } } });
    });

    test('when the same details are saved again, then nothing is recorded', () => {
      given(pending).when(save(details), baAdmin).thenNothing();
    });

    test('when the same details arrive as a form sends them (strings, lower case), then nothing', () => {
      const asTheFormSendsThem = {
        ...details,
        panNumber: 'aaaca1234z',
        serviceId: '1',
        stateId: '27',
        cityId: '2701',
        ownFleet: '12',
        cinNumber: '',
      };
      given(pending).when(save(asTheFormSendsThem), baAdmin).thenNothing();
    });
  });

  test.each([
    ['in review at stage 1', atStage1],
    ['in review at stage 2', atStage2],
    ['verified', verifiedBa],
  ])('given the onboarding is %s, when the BA saves details, then the rule refuses it', (_label, history) => {
    given(history)
      .when(save({ ...details, companyName: 'Changed' }), baAdmin)
      .thenError('rule', { message: refusals.notEditable });
  });

  test('given a rejected onboarding, when the BA corrects details, then the change is recorded', () => {
    const cin = 'U74999MH2015PTC123456';
    given(rejectedAtStage2)
      .when(save({ ...details, cinNumber: cin }), baAdmin)
      .then([
        {
          type: 'CompanyDetailsSaved',
          data: {
            baId,
            details: { ...details, cinNumber: cin },
            changes: { cinNumber: { before: null, after: cin } },
          },
        },
      ]);
  });
});

describe('SubmitOnboarding', () => {
  test('given complete details, when the BA submits, then submission 1 goes to review at stage 1', () => {
    given(pending).when(submit, baAdmin).then([submitted(1)]);
    expect(stateAfter([...pending, submitted(1)])).toMatchObject({
      status: 'inprogress',
      stage: 1,
      submission: 1,
    });
  });

  test('given no details, when the BA submits, then the rule refuses it listing every required field', () => {
    given([created])
      .when(submit, baAdmin)
      .thenError('rule', {
        message: refusals.incomplete,
        errors: Object.fromEntries(REQUIRED_FOR_SUBMIT.map((f) => [f, messages.required])),
      });
  });

  test('given details without PIN code and mobile, when the BA submits, then the rule names just those', () => {
    given([created, saved({ ...details, pinCode: null, contactPersonMobileNumber: null })])
      .when(submit, baUser)
      .thenError('rule', {
        errors: { pinCode: messages.required, contactPersonMobileNumber: messages.required },
      });
  });

  test.each(staffAndAuditor)('given complete details, when %s submits, then forbidden', (role) => {
    given(pending).when(submit, as('u-staff', role)).thenError('forbidden', { message: refusals.baOnly });
  });

  test.each([
    ['in review', atStage1],
    ['at stage 2', atStage2],
    ['verified', verifiedBa],
  ])('given the onboarding is %s, when the BA submits again, then the rule refuses it', (_label, history) => {
    given(history).when(submit, baAdmin).thenError('rule', { message: refusals.notSubmittable });
  });

  test('given a rejection, when the BA resubmits, then submission 2 is flagged as a resubmission', () => {
    given(rejectedAtStage2)
      .when(submit, baAdmin)
      .then([{ type: 'OnboardingSubmitted', data: { baId, submission: 2, resubmission: true } }]);
  });
});

describe('ApproveReviewStage', () => {
  describe('given review at stage 1', () => {
    test.each([
      ['MLL Procurement', procurement],
      ['MLL-ADMIN', admin],
    ])('when %s approves stage 1, then the onboarding moves to stage 2', (_label, meta) => {
      given(atStage1).when(approve(1), meta).then([approved(1, meta)]);
      expect(stateAfter([...atStage1, approved(1, meta)])).toMatchObject({
        status: 'inprogress',
        stage: 2,
        stage1ApprovedBy: meta.actor.userId,
      });
    });

    test.each([
      ...['MLL Commercial', 'MLL Accounts_HEAD', 'MLL Accounts', 'BA Engagement Manager', 'IDT-Team', 'MDM'],
      ...['MLL Operations', 'MLL Legal', 'Auditor', 'BA Admin', 'BA User', 'system'],
    ])('when %s approves stage 1, then forbidden', (role) => {
      given(atStage1)
        .when(approve(1), as('u-other', role))
        .thenError('forbidden', { message: refusals.wrongRole(1) });
    });

    test('when approved with remarks, then the trimmed remarks are recorded', () => {
      given(atStage1)
        .when(approve(1, '  Documents look fine  '), procurement)
        .then([approved(1, procurement, 1, 'Documents look fine')]);
    });

    test.each([[''], ['   '], [null], [undefined]])(
      'when approved with remarks %j, then remarks are null',
      (remarks) => {
        given(atStage1).when(approve(1, remarks), procurement).then([approved(1, procurement)]);
      },
    );

    test.each([
      ['start with a formula character', '=cmd()', messages.leadingCharacter],
      ['exceed 260 characters', 'a'.repeat(261), messages.tooLong],
    ])('when approval remarks %s, then validation on remarks', (_label, remarks, message) => {
      given(atStage1)
        .when(approve(1, remarks), procurement)
        .thenError('validation', { errors: { remarks: message } });
    });
  });

  describe('given review at stage 2', () => {
    test.each([
      ['MLL Commercial', commercial],
      ['MLL Accounts_HEAD', accountsHead],
      ['MLL-ADMIN', admin],
    ])('when %s approves stage 2, then the BA is verified with the welcome message', (_label, meta) => {
      given(atStage2)
        .when(approve(2), meta)
        .then([
          approved(2, meta),
          {
            type: 'BusinessAssociateVerified',
            data: { baId, submission: 1, welcomeMessage: WELCOME_MESSAGE },
          },
        ]);
      expect(stateAfter([...atStage2, approved(2, meta), verified()])).toMatchObject({
        status: 'verified',
        stage: null,
        welcomeMessage: WELCOME_MESSAGE,
      });
    });

    test.each(['MLL Procurement', 'MLL Accounts', 'MLL Operations', 'Auditor', 'BA Admin', 'system'])(
      'when %s approves stage 2, then forbidden',
      (role) => {
        given(atStage2)
          .when(approve(2), as('u-other', role))
          .thenError('forbidden', { message: refusals.wrongRole(2) });
      },
    );
  });

  test('the welcome message wishes the BA well in working together', () => {
    expect(WELCOME_MESSAGE).toMatch(/welcome/i);
    expect(WELCOME_MESSAGE).toMatch(/working together/i);
  });

  test.each([
    ['stage 2 while at stage 1', atStage1, 2, 'This onboarding is at stage 1, not stage 2'],
    ['stage 1 again while at stage 2 (stale)', atStage2, 1, 'This onboarding is at stage 2, not stage 1'],
    ['stage 3', atStage1, 3, 'This onboarding is at stage 1, not stage 3'],
  ])('given review in progress, when %s is approved, then conflict', (_label, history, stage, message) => {
    given(history).when(approve(stage), admin).thenError('conflict', { message });
  });

  describe('nobody approves both stages of the same submission', () => {
    test('given X approved stage 1, when X approves stage 2, then the rule refuses it', () => {
      given([...atStage1, approved(1, admin)])
        .when(approve(2), admin)
        .thenError('rule', { message: refusals.sameApprover });
    });

    test('given an MLL-ADMIN approved stage 1, when another MLL-ADMIN approves stage 2, then verified', () => {
      given([...atStage1, approved(1, admin)])
        .when(approve(2), admin2)
        .then([approved(2, admin2), verified()]);
    });

    test('given X approved stage 1 before a rejection, when X approves stage 2 of the resubmission, then ok', () => {
      const history = [
        ...atStage1,
        approved(1, admin),
        rejected(2, commercial, 'Fix the address'),
        submitted(2),
        approved(1, admin2, 2),
      ];
      given(history)
        .when(approve(2), admin)
        .then([approved(2, admin, 2), verified(2)]);
    });

    test('given a resubmission whose stage 1 X approved, when X approves its stage 2, then refused', () => {
      const history = [
        ...atStage1,
        approved(1, admin),
        rejected(2, commercial, 'Fix'),
        submitted(2),
        approved(1, admin2, 2),
      ];
      given(history).when(approve(2), admin2).thenError('rule', { message: refusals.sameApprover });
    });
  });

  test('given the onboarding was never submitted, when a reviewer approves, then the rule refuses it', () => {
    given(pending).when(approve(1), procurement).thenError('rule', { message: refusals.notInReview });
  });

  test.each([
    ['approve stage 2 again', approve(2), commercial],
    ['approve stage 1', approve(1), procurement],
    ['reject stage 2', reject(2, 'Too late'), commercial],
  ])('given a verified BA, when a reviewer tries to %s, then it is refused', (_label, command, meta) => {
    given(verifiedBa).when(command, meta).thenError('rule', { message: refusals.notInReview });
  });

  test('given a rejected onboarding, when a reviewer approves before the resubmission, then refused', () => {
    given(rejectedAtStage2).when(approve(2), admin).thenError('rule', { message: refusals.notInReview });
  });
});

describe('RejectReviewStage', () => {
  test('given review at stage 1, when MLL Procurement rejects with remarks, then rejected with them', () => {
    const remarks = 'PAN does not match the certificate';
    given(atStage1)
      .when(reject(1, ` ${remarks} `), procurement)
      .then([rejected(1, procurement, remarks)]);
    expect(stateAfter([...atStage1, rejected(1, procurement, remarks)])).toMatchObject({
      status: 'rejected',
      stage: null,
      remarks,
    });
  });

  test.each([
    ['MLL Commercial', commercial],
    ['MLL Accounts_HEAD', accountsHead],
    ['MLL-ADMIN', admin],
  ])('given review at stage 2, when %s rejects, then the onboarding is rejected at stage 2', (_, meta) => {
    const remarks = 'GST certificate is missing';
    given(atStage2).when(reject(2, remarks), meta).then([rejected(2, meta, remarks)]);
  });

  describe('given review at stage 1', () => {
    test.each([[undefined], [null], [''], ['   '], ['\t\n']])(
      'when rejected with remarks %j, then validation: remarks are required',
      (remarks) => {
        given(atStage1)
          .when(reject(1, remarks), procurement)
          .thenError('validation', {
            message: refusals.remarksRequired,
            errors: { remarks: refusals.remarksRequired },
          });
      },
    );

    test('when rejected with 260 characters of remarks, then it is accepted', () => {
      const remarks = 'r'.repeat(260);
      given(atStage1).when(reject(1, remarks), procurement).then([rejected(1, procurement, remarks)]);
    });

    test('when rejected with 261 characters of remarks, then validation on remarks', () => {
      given(atStage1)
        .when(reject(1, 'r'.repeat(261)), procurement)
        .thenError('validation', { message: messages.tooLong, errors: { remarks: messages.tooLong } });
    });

    test.each(['-', '=', '@', '#', '&', '^', '+', '|', '%', '<', "'", '"'])(
      'when remarks start with %s, then validation on remarks',
      (c) => {
        given(atStage1)
          .when(reject(1, `${c}HYPERLINK("http://x")`), procurement)
          .thenError('validation', { errors: { remarks: messages.leadingCharacter } });
      },
    );

    test('when the wrong role rejects, then forbidden', () => {
      given(atStage1)
        .when(reject(1, 'No'), commercial)
        .thenError('forbidden', { message: refusals.wrongRole(1) });
    });
  });

  test('given review at stage 2, when stage 1 is rejected, then conflict', () => {
    given(atStage2).when(reject(1, 'No'), procurement).thenError('conflict');
  });

  test('given a rejection, when the BA edits and resubmits, then review starts over without the remarks', () => {
    const corrected = { ...details, addressLine2: 'Near Gate 2' };
    const [edit] = given(rejectedAtStage2).when(save(corrected), baAdmin).result as OnboardingEvent[];
    const afterEdit = [...rejectedAtStage2, edit!];
    expect(stateAfter(afterEdit)).toMatchObject({
      status: 'rejected',
      remarks: 'GST certificate is missing',
    });

    given(afterEdit).when(submit, baAdmin).then([submitted(2)]);
    expect(stateAfter([...afterEdit, submitted(2)])).toMatchObject({
      status: 'inprogress',
      stage: 1,
      submission: 2,
      remarks: null,
      stage1ApprovedBy: null,
      details: corrected,
    });
  });
});

describe('MarkReviewOverdue', () => {
  test('given review at stage 1, when its SLA passes, then ReviewOverdue is recorded', () => {
    given(atStage1).when(markOverdue(1, 1), system).then([overdue(1, 1)]);
  });

  test('given stage 1 already reported overdue, when the timer fires again, then nothing is recorded', () => {
    given([...atStage1, overdue(1, 1)]).when(markOverdue(1, 1), system).thenNothing();
  });

  test('given stage 1 was overdue, then approved, when stage 2 becomes overdue, then it is recorded', () => {
    given([...atStage1, overdue(1, 1), approved(1, procurement)])
      .when(markOverdue(1, 2), system)
      .then([overdue(1, 2)]);
  });

  test.each([
    ['stage 1 was decided', atStage2, markOverdue(1, 1)],
    ['the BA was verified', verifiedBa, markOverdue(1, 2)],
    ['the onboarding was rejected', rejectedAtStage2, markOverdue(1, 2)],
    ['a newer submission is under review', [...rejectedAtStage2, submitted(2)], markOverdue(1, 1)],
    ['a later stage is asked for', atStage1, markOverdue(1, 2)],
  ])('given %s, when a late timer fires, then nothing is recorded', (_label, history, command) => {
    given(history).when(command, system).thenNothing();
  });

  test('given stage 1 was overdue in submission 1, when overdue in submission 2, then recorded again', () => {
    const history = [...atStage1, overdue(1, 1), rejected(1, procurement, 'Fix'), submitted(2)];
    given(history).when(markOverdue(2, 1), system).then([overdue(2, 1)]);
  });
});

describe('given a BA that does not exist', () => {
  test.each([
    ['SaveCompanyDetails', save(details), baAdmin],
    ['SubmitOnboarding', submit, baAdmin],
    ['ApproveReviewStage', approve(1), procurement],
    ['RejectReviewStage', reject(1, 'No'), procurement],
    ['MarkReviewOverdue', markOverdue(1, 1), system],
  ])('when %s is sent, then not_found', (_label, command, meta) => {
    given([]).when(command, meta).thenError('not_found', { message: refusals.notFound });
  });
});

describe('the whole lifecycle', () => {
  test('pending → submitted → stage 1 → stage 2 → verified, each event carrying the BA id', () => {
    const events: OnboardingEvent[] = [];
    const run = (command: OnboardingCommand, meta: Meta) => {
      const result = onboardingDecider.decide(command, stateAfter(events), meta);
      if (!Array.isArray(result)) throw result;
      events.push(...result);
    };
    run(create, system);
    run(save(details), baAdmin);
    run(submit, baAdmin);
    run(approve(1), procurement);
    run(approve(2), commercial);
    expect(events.map((e) => e.type)).toEqual([
      'BusinessAssociateCreated',
      'CompanyDetailsSaved',
      'OnboardingSubmitted',
      'ReviewStageApproved',
      'ReviewStageApproved',
      'BusinessAssociateVerified',
    ]);
    expect(events.every((e) => e.data.baId === baId)).toBe(true);
    expect(stateAfter(events)).toMatchObject({
      baId,
      companyCode: '1000',
      status: 'verified',
      submission: 1,
    });
  });

  test.each([
    ['save details', [created], save(details)],
    ['submit', pending, submit],
    ['approve', atStage1, approve(1)],
    ['reject', atStage1, reject(1, 'No')],
  ])('an auditor may not %s', (_label, history, command) => {
    given(history).when(command, auditor).thenError('forbidden');
  });

  test('a second procurement user may approve stage 1 like the first', () => {
    given(atStage1).when(approve(1), procurement2).then([approved(1, procurement2)]);
  });
});

describe('decisions against the masters (references resolved by the deciding activity)', () => {
  const active = (id: number | string, stateId?: number) => ({ id, status: 'active' as const, ...(stateId ? { stateId } : {}) });
  const hyderabad = { ...details, serviceId: 6, stateId: 36, cityId: 3601, pinCode: '500001' };
  const resolved = { service: active(6), state: active(36), city: active(3601, 36) };
  const saveResolved = (d: object, references: object = resolved): OnboardingCommand => save({ ...d, references });

  test('given a city the masters hold beyond the old catalogue, when saved, then it is recorded without its references', () => {
    const [event] = given([created]).when(saveResolved(hyderabad), baAdmin).result as OnboardingEvent[];
    expect(event).toMatchObject({ type: 'CompanyDetailsSaved', data: { details: hyderabad } });
    expect(event?.data).not.toHaveProperty('details.references');
  });

  test.each([
    ['a deactivated city', { city: { id: 3601, status: 'inactive', stateId: 36 } }, { cityId: 'Please select a city' }],
    ['a replaced service (no such item)', { service: null }, { serviceId: 'Please select a service' }],
    ['an unknown state', { state: null }, { stateId: 'Please select a state' }],
    ['a city of another state', { city: active(3601, 37) }, { cityId: 'The city does not belong to the selected state' }],
  ])('given %s, when saved, then validation names the field', (_label, change, errors) => {
    given([created])
      .when(saveResolved(hyderabad, { ...resolved, ...change }), baAdmin)
      .thenError('validation', { message: 'Please correct the highlighted fields', errors });
  });

  test('given a Delhi pincode for a Mumbai address, when saved against the masters, then the pincode is refused', () => {
    const mumbai = { service: active(1), state: active(27), city: active(2701, 27) };
    given([created])
      .when(saveResolved({ ...details, pinCode: '110001' }, mumbai), baAdmin)
      .thenError('validation', { errors: { pinCode: 'Pincode does not belong to the selected state' } });
  });

  test('given a fleet of 1,000,000, when saved against the masters, then refused with the fleet message', () => {
    const mumbai = { service: active(1), state: active(27), city: active(2701, 27) };
    given([created])
      .when(saveResolved({ ...details, ownFleet: 1000000, attachedFleet: '2.5' }, mumbai), baAdmin)
      .thenError('validation', { errors: { ownFleet: messages.fleetSize, attachedFleet: messages.fleetSize } });
  });

  test('given a replayed decision (no references), then the rules of then apply: no pincode check, no fleet bound', () => {
    const [event] = given([created]).when(save({ ...details, pinCode: '110001', ownFleet: 1000000 }), baAdmin).result as OnboardingEvent[];
    expect(event).toMatchObject({ type: 'CompanyDetailsSaved', data: { details: { pinCode: '110001', ownFleet: 1000000 } } });
  });

  test('given details without references (a decision replayed from before the masters), then the frozen catalogue decides', () => {
    given([created]).when(save(hyderabad), baAdmin).thenError('validation', {
      errors: { serviceId: 'Please select a service', stateId: 'Please select a state', cityId: 'Please select a city' },
    });
  });

  test('given an active company in the masters, when a BA is created for it, then it is recorded', () => {
    const [event] = given([]).when({ ...create, companyCode: '3000', company: active('3000') }, system).result as OnboardingEvent[];
    expect(event).toMatchObject({ type: 'BusinessAssociateCreated', data: { companyCode: '3000' } });
    expect(event?.data).not.toHaveProperty('company');
  });

  test.each([
    ['retired', { id: '1000', status: 'inactive' as const }],
    ['unknown', null],
  ])('given a %s company, when a BA is created for it, then it is refused', (_label, company) => {
    given([])
      .when({ ...create, company }, system)
      .thenError('validation', { errors: { companyCode: 'Please select a company from the list' } });
  });
});
