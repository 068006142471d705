import { createHash } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import type { OnboardingCommand } from '../domain/src/onboarding/commands';
import type { CompanyDetailsInput } from '../domain/src/onboarding/details';
import { itemsOf, type OnboardingState } from '../domain/src/onboarding/state';
import { ADDITIONAL_DOCUMENT_TYPES } from '../domain/src/masters/reference-data/additional-document-types';
import { DOCUMENT_TYPES } from '../domain/src/masters/reference-data/document-types';
import { indiaDateAt } from '../domain/src/shared/india-date';
import { addDays } from '../workflows/src/document-expiry/schedule';
import { demoPdf, type DemoFile } from './seed-files';

/**
 * The onboarding tabs of a demo BA (issue 8), as item commands the seed sends one at a time through the
 * lifecycle, exactly as the portal's and the console's requests do. Each function answers the NEXT command
 * from the BA's state (null when nothing is left), so an interrupted seed resumes where the stream stands and
 * a re-run finds nothing to do. Item ids are uuid v5 of the BA and the item: stable across runs.
 */

/** Who acts: the seed for the BA (system), the seed as a stage reviewer, the seed as the BA's admin (Edit Profile). */
export type ItemActor = 'ba' | 'reviewer' | 'reviewer-2' | 'ba-admin';
export type ItemStep = { name: string; command: OnboardingCommand; actor: ItemActor; file?: DemoFile };

/** What a demo BA shows beyond a plain onboarding. */
export type DemoStory = {
  /** Items a reviewer rejects before stage 1 (the rejected BA): one document and the bank account. */
  rejectItems?: { documentTypeId: number; documentRemarks: string; bankRemarks: string };
  /** After verification: an additional document the BA uploads (left for review). */
  additionalDocument?: boolean;
  /** After verification: a concession staff upload on the BA's behalf (left for review). */
  concession?: boolean;
  /** After verification: a bank change request the first reviewer approved, waiting for the second. */
  bankChange?: boolean;
  /**
   * Its first document with a validity date is valid for one more week: approved so, the expiry timer sends the
   * 7-day reminder at once. (No demo document can be expired already: the rules refuse a validity date in the
   * past, and the seed only sends commands a person could.)
   */
  expiringDocument?: boolean;
};

export type DemoItemsBa = {
  key: string;
  details: CompanyDetailsInput & { panNumber: string; stateId: number; cityId: number; serviceId: number; companyName: string };
  story?: DemoStory;
};

const ITEM_NAMESPACE = '0b6f3a52-8c1d-4f0e-a7d2-5e9c4b1f8a37';
export const demoItemId = (baKey: string, item: string): string => uuidv5(`demo-item:${baKey}:${item}`, ITEM_NAMESPACE);

/** The expiring demo document's validity: the expiry timer's 7-day reminder falls due on the day it is approved. */
export const EXPIRING_IN_DAYS = 7;
/**
 * A day `days` from today (YYYY-MM-DD): validity dates must be today or later when uploaded. Today in India, as
 * the expiry timer counts: from 18:30 UTC the UTC date is a day behind, and a week's validity was six days.
 */
const dayFromNow = (days: number): string => addDays(indiaDateAt(Date.now()), days);

/** Digits from the BA's key, so every demo BA has its own account number (no false duplicate warnings). */
const digitsOf = (text: string, n: number): string =>
  BigInt(`0x${createHash('sha256').update(text).digest('hex').slice(0, 15)}`).toString().padStart(n, '0').slice(-n);

export const demoBankAccount = (ba: DemoItemsBa, variant = '') => ({
  accountNo: `5010${digitsOf(`${ba.key}${variant}`, 8)}`,
  ifscCode: 'HDFC0001234',
  micrNo: '',
  accountName: ba.details.companyName,
  bankName: 'HDFC Bank',
  bankBranch: variant ? 'Bandra Kurla Complex, Mumbai' : 'Fort, Mumbai',
});

/** The states master's id is the GST state code (items-schema.ts); entity 1, default Z, any check character. */
export const demoGstin = (ba: DemoItemsBa): string => `${String(ba.details.stateId).padStart(2, '0')}${ba.details.panNumber}1Z5`;

/** The documents the BA's service makes mandatory (the documents master), in the master's order. */
export const mandatoryDocumentTypes = (serviceId: number) =>
  DOCUMENT_TYPES.filter((t) => t.mandatoryServiceIds.includes(serviceId));

const pdfFor = (ba: DemoItemsBa, title: string, slug: string): DemoFile =>
  demoPdf(`${slug}.pdf`, [title, ba.details.companyName, `PAN ${ba.details.panNumber}`]);

const slugOf = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** The next tab item a demo BA still lacks before it can submit. */
export function nextFillStep(ba: DemoItemsBa, s: OnboardingState): ItemStep | null {
  const items = itemsOf(s);
  const accountId = demoItemId(ba.key, 'bank:primary');
  if (!items.bankAccounts[accountId])
    return { name: 'bank:primary', actor: 'ba', command: { type: 'SaveBankAccount', accountId, primary: true, account: demoBankAccount(ba) } };
  const gstId = demoItemId(ba.key, `gst:${ba.details.stateId}`);
  if (!items.gstRegistrations[gstId])
    return {
      name: `gst:${ba.details.stateId}`,
      actor: 'ba',
      command: {
        type: 'SaveGstRegistration',
        gstId,
        registration: {
          stateId: ba.details.stateId,
          gstType: '',
          gstNo: demoGstin(ba),
          addressLine1: ba.details.addressLine1,
          addressLine2: ba.details.addressLine2 ?? '',
          pinCode: ba.details.pinCode,
          cityId: ba.details.cityId,
          bankAccountId: accountId,
          vendorCategory: '',
        },
      },
    };
  const types = mandatoryDocumentTypes(ba.details.serviceId);
  const expiring = ba.story?.expiringDocument ? types.find((t) => t.needsValidityDate)?.id : undefined;
  for (const type of types) {
    const docId = demoItemId(ba.key, `doc:${type.id}`);
    if (items.documents[docId]) continue;
    const file = pdfFor(ba, type.name, slugOf(type.name));
    return {
      name: `doc:${type.id}`,
      actor: 'ba',
      file,
      command: {
        type: 'UploadDocument',
        docId,
        document: {
          documentTypeId: type.id,
          kind: 'onboarding',
          documentNumber: type.id === 1 ? ba.details.panNumber : null,
          validTill: type.needsValidityDate ? dayFromNow(type.id === expiring ? EXPIRING_IN_DAYS : 540) : null,
          stateId: type.isGstDocument ? ba.details.stateId : null,
          file: file.stored,
        },
      },
    };
  }
  if (!items.verticalMapping)
    return {
      name: 'mapping',
      actor: 'ba',
      command: {
        type: 'SaveVerticalMapping',
        mapping: { verticalIds: [1], subServiceIds: [1], vehicleTypeIds: [1], zoneIds: [], pickupZoneIds: [], deliveryZoneIds: [] },
      },
    };
  return null;
}

/** The next item a reviewer must decide before stage 1: approve, or reject what the story rejects. */
export function nextReviewStep(ba: DemoItemsBa, s: OnboardingState): ItemStep | null {
  const items = itemsOf(s);
  const reject = ba.story?.rejectItems;
  for (const [accountId, { review }] of Object.entries(items.bankAccounts)) {
    if (review.status !== 'pending') continue;
    const command: OnboardingCommand = reject
      ? { type: 'ReviewBankAccount', accountId, decision: 'rejected', remarks: reject.bankRemarks }
      : { type: 'ReviewBankAccount', accountId, decision: 'approved' };
    return { name: `review:bank:${accountId}`, actor: 'reviewer', command };
  }
  for (const [docId, { document, review }] of Object.entries(items.documents)) {
    if (review.status !== 'pending' || document.kind !== 'onboarding') continue;
    const command: OnboardingCommand =
      reject?.documentTypeId === document.documentTypeId
        ? { type: 'ReviewDocument', docId, decision: 'rejected', remarks: reject.documentRemarks }
        : { type: 'ReviewDocument', docId, decision: 'approved', approvedTill: document.validTill };
    return { name: `review:doc:${docId}`, actor: 'reviewer', command };
  }
  for (const [concessionId, { review }] of Object.entries(items.concessions))
    if (review.status === 'pending')
      return { name: `review:concession:${concessionId}`, actor: 'reviewer', command: { type: 'ReviewConcession', concessionId, decision: 'approved' } };
  if (items.verticalMapping?.review.status === 'pending')
    return { name: 'review:mapping', actor: 'reviewer', command: { type: 'ReviewVerticalMapping', decision: 'approved' } };
  return null;
}

/** What a verified demo BA shows beyond its onboarding (additional document, concession, bank change request). */
export function nextVerifiedStep(ba: DemoItemsBa, s: OnboardingState): ItemStep | null {
  const items = itemsOf(s);
  const story = ba.story ?? {};
  if (story.additionalDocument) {
    const docId = demoItemId(ba.key, 'additional:iso-9001');
    const type = ADDITIONAL_DOCUMENT_TYPES.find((t) => t.name === 'ISO 9001 Certificate') ?? ADDITIONAL_DOCUMENT_TYPES[0];
    if (type && !items.documents[docId]) {
      const file = pdfFor(ba, type.name, slugOf(type.name));
      return {
        name: 'additional:iso-9001',
        actor: 'ba',
        file,
        command: {
          type: 'UploadDocument',
          docId,
          document: {
            documentTypeId: type.id,
            kind: 'additional',
            documentNumber: 'QMS/IN/2025/11873',
            validTill: type.needsValidityDate ? dayFromNow(700) : null,
            stateId: null,
            file: file.stored,
          },
        },
      };
    }
  }
  if (story.concession) {
    const concessionId = demoItemId(ba.key, 'concession:197');
    if (!items.concessions[concessionId]) {
      const file = pdfFor(ba, 'Lower deduction certificate (section 197)', 'lower-deduction-certificate');
      return {
        name: 'concession:197',
        // Staff upload it on the BA's behalf (spec §6): the console shows it as an internal upload.
        actor: 'reviewer',
        file,
        command: {
          type: 'SaveConcession',
          concessionId,
          concession: {
            exemptionNumber: `LDC/${ba.details.panNumber}/2026`,
            exemptionRate: '0.5',
            exemptionFrom: dayFromNow(0),
            exemptionTo: dayFromNow(300),
            exemptionReasonId: 1,
            exemptionThreshold: '2500000',
            withHoldingTaxType: 'WC',
            withHoldingTaxCode: 'C2',
            sectionCode: '194C',
            file: file.stored,
          },
        },
      };
    }
  }
  if (story.bankChange) {
    const requestId = demoItemId(ba.key, 'change:bank');
    const request = items.changeRequests[requestId];
    if (!request)
      return {
        name: 'change:bank',
        actor: 'ba-admin',
        command: { type: 'RaiseChangeRequest', requestId, section: 'bank', proposed: demoBankAccount(ba, ':new') },
      };
    // The first of the two approvals; the second waits for a person with a stage-2 role.
    if (request.status === 'pending')
      return { name: 'change:bank:first-approval', actor: 'reviewer', command: { type: 'ApproveChangeRequest', requestId } };
  }
  return null;
}
