import { fold } from '../shared/decider';
import { givenWhenThen } from '../shared/testing';
import type { OnboardingCommand } from './commands';
import { onboardingDecider, refusals } from './decide';
import type { OnboardingEvent } from './events';
import { itemsOf } from './state';
import { mandatoryDocumentsMissing, submissionRefusals } from './submission';
import {
  accountReviewed,
  accountSaved,
  admin,
  admin2,
  allItemsApproved,
  baAdmin,
  baId,
  baUser,
  commercial,
  complete,
  concessionReviewed,
  concessionSaved,
  created,
  details,
  detailsSaved,
  document,
  docReviewed,
  docType,
  documentTypes,
  docUploaded,
  gstRow,
  gstSaved,
  inReview,
  mandatoryDocs,
  mappingReviewed,
  mappingSaved,
  procurement,
  stageApproved,
  stageRejected,
  submitted,
  submitWithTypes,
  verifiedBa,
  verifiedEvent,
} from './testing';

const given = givenWhenThen(onboardingDecider);
const stateAfter = (events: OnboardingEvent[]) => fold(onboardingDecider, events);
const INCOMPLETE = 'Please complete every tab before submitting';

describe('SubmitOnboarding with the documents master (issue 8)', () => {
  test('given every tab complete, when the BA submits, then submission 1', () => {
    given(complete).when(submitWithTypes(), baAdmin).then([submitted(1)]);
  });

  test('given only company details, when the BA submits, then every other tab says what is missing', () => {
    given([created, detailsSaved()])
      .when(submitWithTypes(), baAdmin)
      .thenError('rule', {
        message: INCOMPLETE,
        errors: {
          bankDetails: 'Missing: primary bank account',
          gstRegistrations: 'Missing: a place of business',
          documents:
            'Missing: PAN Card, Cancelled Cheque, Vehicle Registration Certificate (RC), Transporter Licence, Goods in Transit Insurance',
          verticalMapping: 'Missing: at least one vertical',
        },
      });
  });

  test('given no company details, then the company tab lists the missing fields by name', () => {
    const error = given(complete.filter((e) => e.type !== 'CompanyDetailsSaved')).when(submitWithTypes(), baAdmin).thenError('rule');
    expect(error.errors?.companyDetails).toBe(
      'Missing: Company Name, PAN, Contact Person Name, Service, State, City, Address, Pincode, Contact Person Mobile Number',
    );
  });

  test('given the PAN card and the cheque missing, then documents names exactly those', () => {
    const history = complete.filter((e) => !(e.type === 'DocumentUploaded' && ['doc-pan', 'doc-cheque'].includes(e.data.docId)));
    given(history).when(submitWithTypes(), baAdmin).thenError('rule', { errors: { documents: 'Missing: PAN Card, Cancelled Cheque' } });
  });

  describe('mandatory documents per service (mandatoryServiceIds lists the services; empty = optional for all)', () => {
    test.each([
      [1, ['PAN Card', 'Cancelled Cheque', 'Vehicle Registration Certificate (RC)', 'Transporter Licence', 'Goods in Transit Insurance']],
      [2, ['PAN Card', 'Cancelled Cheque', 'Warehouse Trade Licence', 'Fire NOC']],
      [3, ['PAN Card', 'Cancelled Cheque', 'Customs Broker Licence', 'Import Export Code (IEC)']],
      [4, ['PAN Card', 'Cancelled Cheque', 'Vehicle Registration Certificate (RC)']],
      [5, ['PAN Card', 'Cancelled Cheque', 'Contract Labour Licence']],
      [6, ['PAN Card', 'Cancelled Cheque']],
    ])('service %i must upload %j', (serviceId, names) => {
      const state = stateAfter([created, detailsSaved({ ...details, serviceId })]);
      expect(mandatoryDocumentsMissing(state, documentTypes)).toEqual(names);
    });

    test('an inactive type is not asked for', () => {
      const state = stateAfter([created, detailsSaved({ ...details, serviceId: 6 })]);
      const retired = documentTypes.map((t) => (t.id === 3 ? { ...t, status: 'inactive' as const } : t));
      expect(mandatoryDocumentsMissing(state, retired)).toEqual(['PAN Card']);
    });

    test('a GST certificate is asked for each registered place of business, none for an unregistered one', () => {
      const karnataka = { ...gstRow, stateId: 29, gstNo: `29${details.panNumber}1Z5`, pinCode: '560058', cityId: 2901 };
      const tamilNadu = { ...gstRow, stateId: 33, gstType: '0' as const, gstNo: null, pinCode: '600032', cityId: 3301 };
      const state = stateAfter([created, detailsSaved({ ...details, serviceId: 6 }), gstSaved(), gstSaved('g29', karnataka), gstSaved('g33', tamilNadu)]);
      expect(mandatoryDocumentsMissing(state, documentTypes)).toEqual([
        'PAN Card',
        'GST Registration Certificate (Maharashtra)',
        'GST Registration Certificate (Karnataka)',
        'Cancelled Cheque',
      ]);
      const withMh = stateAfter([...[created, detailsSaved({ ...details, serviceId: 6 }), gstSaved(), gstSaved('g29', karnataka)], docUploaded('g', document(2, { stateId: 27 }))]);
      expect(mandatoryDocumentsMissing(withMh, documentTypes)).toContain('GST Registration Certificate (Karnataka)');
      expect(mandatoryDocumentsMissing(withMh, documentTypes)).not.toContain('GST Registration Certificate (Maharashtra)');
    });
  });

  test("given places of business none of which is in the company's state, then the GST tab says so", () => {
    const karnataka = { ...gstRow, stateId: 29, gstNo: `29${details.panNumber}1Z5`, pinCode: '560058', cityId: 2901 };
    const history = complete.map((e) => (e.type === 'GstRegistrationSaved' ? gstSaved('gst-29', karnataka) : e));
    const error = given(history).when(submitWithTypes(), baAdmin).thenError('rule');
    expect(error.errors?.gstRegistrations).toBe('Missing: a place of business in Maharashtra');
  });

  test('given a GSTIN saved before the PAN changed, then the GST tab flags it', () => {
    const history = [...complete, detailsSaved({ ...details, panNumber: 'BBBCB9999X' })];
    const error = given(history).when(submitWithTypes(), baAdmin).thenError('rule');
    expect(error.errors?.gstRegistrations).toBe("A GSTIN does not contain the company's PAN");
  });

  describe('resubmission after a rejection', () => {
    const rejectedItems = [
      ...inReview,
      docReviewed('doc-cheque', 'rejected', procurement, null, 'Unreadable'),
      accountReviewed('acc-1', 'rejected', procurement, 'Wrong IFSC'),
      stageRejected(1, procurement, 'Fix the cheque and the account'),
    ];

    test('given rejected items left unchanged, when the BA resubmits, then refused, naming them per tab', () => {
      given(rejectedItems)
        .when(submitWithTypes(), baAdmin)
        .thenError('rule', {
          message: 'Rejected items must be corrected before resubmitting',
          errors: { documents: 'Rejected: Cancelled Cheque', bankDetails: 'Rejected: account 123456789012' },
        });
    });

    test('given only the cheque fixed, then the account is still named', () => {
      const history = [...rejectedItems, docUploaded('cheque-2', document(3, { file: { ...document(3).file, sha256: 'f'.repeat(64) } }), 'doc-cheque')];
      given(history).when(submitWithTypes(), baAdmin).thenError('rule', { errors: { bankDetails: 'Rejected: account 123456789012' } });
    });

    test('given every rejected item changed, when the BA resubmits, then submission 2', () => {
      const history = [
        ...rejectedItems,
        docUploaded('cheque-2', document(3), 'doc-cheque'),
        accountSaved('acc-1', true, { accountNo: '123456789013', ifscCode: 'HDFC0001234', micrNo: null, accountName: 'Acme', bankName: 'HDFC Bank', bankBranch: 'Fort' }),
      ];
      given(history).when(submitWithTypes(), baUser).then([submitted(2)]);
    });
  });

  test('given a decision replayed from before the items (no documentTypes), then only company details count, as then', () => {
    given([created, detailsSaved()]).when({ type: 'SubmitOnboarding' }, baAdmin).then([submitted(1)]);
    given([created]).when({ type: 'SubmitOnboarding' }, baAdmin).thenError('rule', { message: refusals.incomplete });
  });
});

describe('stage 1 waits for every item to be approved', () => {
  test('given items not reviewed, when stage 1 is approved, then refused with the counts', () => {
    given(inReview)
      .when({ type: 'ApproveReviewStage', stage: 1 }, procurement)
      .thenError('rule', {
        message:
          'Every document, bank account, concession and the vertical mapping must be approved before stage 1 (8 not reviewed, 0 rejected)',
      });
  });

  test('given one item rejected and a concession unreviewed, then the message counts both', () => {
    const history = [...inReview, concessionSaved(), ...allItemsApproved, docReviewed('doc-pan', 'rejected', procurement, null, 'Blurred')];
    given(history)
      .when({ type: 'ApproveReviewStage', stage: 1 }, admin)
      .thenError('rule', { message: submissionRefusals.itemsNotApproved(1, 1) });
  });

  test('given every item approved, when stage 1 is approved, then it moves to stage 2', () => {
    given([...inReview, ...allItemsApproved]).when({ type: 'ApproveReviewStage', stage: 1 }, procurement).then([stageApproved(1, procurement)]);
  });

  test('given an approved concession too, then stage 1 may close', () => {
    const history = [...inReview, concessionSaved(), ...allItemsApproved, concessionReviewed('con-1', 'approved')];
    given(history).when({ type: 'ApproveReviewStage', stage: 1 }, procurement).then([stageApproved(1, procurement)]);
  });

  test('rejecting stage 1 needs no item verdicts', () => {
    given(inReview).when({ type: 'RejectReviewStage', stage: 1, remarks: 'Upload clearer scans' }, procurement).then([
      stageRejected(1, procurement, 'Upload clearer scans'),
    ]);
  });

  test('given a history from before the items (no items at all), then stage 1 is approved as before', () => {
    given([created, detailsSaved(), submitted(1)]).when({ type: 'ApproveReviewStage', stage: 1 }, procurement).then([stageApproved(1, procurement)]);
  });
});

describe('other company codes', () => {
  const apply = (companyCode = '2000', company: { id: string; status: 'active' | 'inactive' } | null = { id: companyCode, status: 'active' }): OnboardingCommand => ({
    type: 'ApplyForCompanyCode',
    companyCode,
    company,
  });
  const applied: OnboardingEvent = { type: 'CompanyCodeApplied', data: { baId, companyCode: '2000' } };

  test('given a verified BA, when its admin applies for another active company, then CompanyCodeApplied', () => {
    given(verifiedBa).when(apply(), baAdmin).then([applied]);
    expect(itemsOf(stateAfter([...verifiedBa, applied])).otherApplications['2000']).toMatchObject({ status: 'pending', submission: 0 });
  });

  test.each([
    ['a BA User', verifiedBa, apply(), baUser, 'forbidden'],
    ['staff', verifiedBa, apply(), admin, 'forbidden'],
    ['an unverified BA', complete, apply(), baAdmin, 'rule'],
    ['an inactive company', verifiedBa, apply('2000', { id: '2000', status: 'inactive' }), baAdmin, 'validation'],
    ['an unknown company', verifiedBa, apply('2000', null), baAdmin, 'validation'],
    ['its own first company code', verifiedBa, apply('1000'), baAdmin, 'conflict'],
    ['a code already applied for', [...verifiedBa, applied], apply(), baAdmin, 'conflict'],
  ] as const)('%s: refused', (_l, history, command, meta, code) => {
    given([...history]).when(command, meta).thenError(code);
  });

  describe('its application runs the two stages on its own', () => {
    const withApplication = [...verifiedBa, applied];
    const submit2000: OnboardingCommand = { type: 'SubmitOnboarding', companyCode: '2000' };

    test('when the BA submits for the code, then submission 1 of that code; the first application stays verified', () => {
      given(withApplication).when(submit2000, baAdmin).then([submitted(1, '2000')]);
      const after = stateAfter([...withApplication, submitted(1, '2000')]);
      expect(after.status).toBe('verified');
      expect(itemsOf(after).otherApplications['2000']).toMatchObject({ status: 'inprogress', stage: 1, submission: 1 });
    });

    test('stage 1 and stage 2 by different people verify the code', () => {
      const atStage1 = [...withApplication, submitted(1, '2000')];
      given(atStage1).when({ type: 'ApproveReviewStage', stage: 1, companyCode: '2000' }, admin).then([stageApproved(1, admin, 1, '2000')]);
      const atStage2 = [...atStage1, stageApproved(1, admin, 1, '2000')];
      given(atStage2).when({ type: 'ApproveReviewStage', stage: 2, companyCode: '2000' }, admin).thenError('rule', { message: refusals.sameApprover });
      given(atStage2)
        .when({ type: 'ApproveReviewStage', stage: 2, companyCode: '2000' }, admin2)
        .then([stageApproved(2, admin2, 1, '2000'), verifiedEvent(1, '2000')]);
      const done = stateAfter([...atStage2, stageApproved(2, admin2, 1, '2000'), verifiedEvent(1, '2000')]);
      expect(itemsOf(done).otherApplications['2000']?.status).toBe('verified');
    });

    test('a rejection of the code, then a resubmission of the code', () => {
      const atStage1 = [...withApplication, submitted(1, '2000')];
      given(atStage1)
        .when({ type: 'RejectReviewStage', stage: 1, remarks: 'Not in this region', companyCode: '2000' }, procurement)
        .then([stageRejected(1, procurement, 'Not in this region', 1, '2000')]);
      const rejected = [...atStage1, stageRejected(1, procurement, 'Not in this region', 1, '2000')];
      expect(stateAfter(rejected).status).toBe('verified');
      given(rejected).when(submit2000, baAdmin).then([{ type: 'OnboardingSubmitted', data: { baId, submission: 2, resubmission: true, companyCode: '2000' } }]);
    });

    test('stage 1 of the code waits for every item too (a new pending document)', () => {
      const history = [...withApplication, docUploaded('rc-2', document(6, { validTill: '2029-01-01' }), 'doc-rc'), submitted(1, '2000')];
      given(history).when({ type: 'ApproveReviewStage', stage: 1, companyCode: '2000' }, procurement).thenError('rule', {
        message: submissionRefusals.itemsNotApproved(1, 0),
      });
    });

    test('a code never applied for: not_found; the first code named explicitly is the first application', () => {
      given(verifiedBa).when(submit2000, baAdmin).thenError('not_found', { message: submissionRefusals.noApplication });
      given(complete).when({ ...submitWithTypes(), companyCode: '1000' } as OnboardingCommand, baAdmin).then([submitted(1)]);
      given(withApplication).when({ type: 'ApproveReviewStage', stage: 1, companyCode: '2000' }, procurement).thenError('rule', {
        message: refusals.notInReview,
      });
    });
  });
});

test('the fixtures: a complete BA uploads exactly the mandatory documents of its service', () => {
  expect(mandatoryDocs).toHaveLength(6);
  expect(mandatoryDocumentsMissing(stateAfter(complete), documentTypes)).toEqual([]);
  expect(docType(2).isGstDocument).toBe(true);
  expect([mappingSaved(), mappingReviewed('approved'), gstSaved()].every((e) => e.data.baId === baId)).toBe(true);
  expect(commercial.actor.role).toBe('MLL Commercial');
});
