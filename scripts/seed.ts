import { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import { v5 as uuidv5 } from 'uuid';
import { hashPassword } from '../api/src/identity/password';
import { saveCredential } from '../api/src/identity/store/credentials';
import { handleCommand } from '../domain/src/event-store/handle-command';
import { ConcurrencyError, type EventStore } from '../domain/src/event-store/port';
import { REVIEW_STAGE_ROLES, SYSTEM_ROLE, type Role } from '../domain/src/identity/roles';
import type { AppAccess } from '../domain/src/identity/applications';
import { userDecider, userIdForUsername, userStreamId, type UserCommand } from '../domain/src/identity/users';
import {
  baStreamId,
  evolve,
  initialState,
  type OnboardingEvent,
  type OnboardingState,
} from '../domain/src/onboarding';
import type { CompanyDetailsInput } from '../domain/src/onboarding/details';
import { isReferenceDataEvent } from '../domain/src/masters/reference-data';
import { DomainError } from '../domain/src/shared/errors';
import type { Actor, StoredEvent } from '../domain/src/shared/events';
import { demoSeedStatus, setDemoSeedStatus } from '../platform/src/db/demo-seed-state';
import { waitForProjections } from '../projections/src/runner';
import { sendOnboardingAction, startOnboarding, type OnboardingAction } from '../workflows/src/onboarding/client';
import type { BlobStore } from '../platform/src/files';
import { putDemoFile, type DemoFile } from './seed-files';
import { nextFillStep, nextReviewStep, nextVerifiedStep, type DemoStory, type ItemStep } from './seed-onboarding';
import { seedReleases } from './seed-releases';
import { seedRfps, type RfpSeedOutcome } from './seed-rfps';
import { DEMO_SUBMIT_TO, seedInvoices, type InvoiceSeedOutcome } from './seed-invoices';
import { seedSap, type SapActor, type SapSeedOutcome, type SapStory } from './seed-vendor-codes';

/**
 * Demo data for a first start, sent through the same commands and workflows as real use (never written into
 * read-model tables). It goes only into an empty store: the `demo_seed` row says whether it has run ('done':
 * nothing to do), was interrupted ('running': finish it) or found other data first ('skipped'). Finishing an
 * interrupted run, it moves a BA forward only from where its event stream says it stands, and leaves alone
 * any BA whose stream holds an event the seed did not write (a person has acted on it). Every event it writes
 * names the "Demo seed" system actor, never a demo person.
 */
export const DEMO_PASSWORD = 'Demo@2026';

type DemoUser = {
  username: string;
  name: string;
  roles: Role[];
  companyCodes: string[];
  baId: string | null;
  /** Sign-in codes go to this mobile by SMS (and to the e-mail): the dev outbox shows both. */
  mobileNo: string;
  /** Roles per application; without it each role is held on the onboarding application. */
  applications?: AppAccess[];
  department?: string;
  /** A Bill-Hub-only user holds the GST state it bills for. */
  billHubStateId?: number;
  /** A demo account that has been blocked, so the Users screens show one (it cannot sign in). */
  blockedReason?: string;
};

type Target =
  | { status: 'pending'; details: 'none' | 'partial' | 'full' }
  | { status: 'inprogress'; stage: 1 | 2 }
  | { status: 'verified' }
  | { status: 'rejected'; stage: 1 | 2; remarks: string };

export type DemoBa = {
  key: string;
  baId: string;
  companyCode: '1000' | '2000';
  admin: { username: string; name: string; mobile: string };
  details: CompanyDetailsInput & { companyName: string; panNumber: string; serviceId: number; stateId: number; cityId: number };
  target: Target;
  /** What the BA shows beyond a plain onboarding (seed-onboarding.ts). */
  story?: DemoStory;
  /** Once verified: its SAP vendor codes and block request (seed-vendor-codes.ts). */
  sap?: SapStory;
};

const BA_NAMESPACE = '5d0f7c1e-2b8a-4e57-9c3d-7a61f0b2c4e8';
export const demoBaId = (key: string): string => uuidv5(`demo-ba:${key}`, BA_NAMESPACE);

/** A demo BA as written below: its admin is its contact person, who signs in with `username`. */
type DemoBaSpec = Omit<DemoBa, 'baId' | 'admin' | 'details'> & {
  username: string;
  details: DemoBa['details'] & { contactPersonName: string; contactPersonMobileNumber: string };
};

const demoBa = ({ key, companyCode, username, details, target, story, sap }: DemoBaSpec): DemoBa => ({
  key,
  baId: demoBaId(key),
  companyCode,
  admin: { username, name: details.contactPersonName, mobile: details.contactPersonMobileNumber },
  details,
  target,
  ...(story ? { story } : {}),
  ...(sap ? { sap } : {}),
});

/** Company-code '1000' holds ba.admin's BA and the demo staff; '2000' is out of their reach. */
export const DEMO_BAS: readonly DemoBa[] = [
  demoBa({
    key: 'sahyadri',
    companyCode: '1000',
    username: 'ba.admin@demo.test',
    details: {
      companyName: 'Sahyadri Roadways Private Limited',
      panNumber: 'AAHCS4821K',
      contactPersonName: 'Ganesh Patil',
      cinNumber: 'U60231MH2014PTC254871',
      serviceId: 1,
      stateId: 27,
      cityId: 2702,
      addressLine1: 'Plot 14, Bhosari MIDC',
      addressLine2: 'Pimpri-Chinchwad',
      pinCode: '411026',
      companyLandline: '020 2712 4455',
      contactPersonMobileNumber: '9822012345',
      ownFleet: 18,
      attachedFleet: 40,
    },
    target: { status: 'pending', details: 'partial' },
  }),
  demoBa({
    key: 'konkan',
    companyCode: '1000',
    username: 'ba.2@demo.test',
    details: {
      companyName: 'Konkan Cargo Movers Private Limited',
      panNumber: 'AABCK7310L',
      contactPersonName: 'Sameer Naik',
      cinNumber: 'U60232MH2011PTC219034',
      serviceId: 1,
      stateId: 27,
      cityId: 2701,
      addressLine1: '3rd Floor, Transport Bhavan, Wadala Truck Terminal',
      addressLine2: null,
      pinCode: '400037',
      companyLandline: '022 2414 7788',
      contactPersonMobileNumber: '9820456781',
      ownFleet: 32,
      attachedFleet: 75,
    },
    target: { status: 'pending', details: 'none' },
  }),
  demoBa({
    key: 'deccan',
    companyCode: '1000',
    username: 'ba.3@demo.test',
    details: {
      companyName: 'Deccan Fleet Logistics Private Limited',
      panNumber: 'AAFCD2956M',
      contactPersonName: 'Anjali Kulkarni',
      cinNumber: 'U63090MH2016PTC283310',
      serviceId: 2,
      stateId: 27,
      cityId: 2702,
      addressLine1: 'Survey No. 58, Chakan Industrial Area',
      addressLine2: 'Khed Taluka',
      pinCode: '410501',
      companyLandline: null,
      contactPersonMobileNumber: '9881203344',
      ownFleet: 12,
      attachedFleet: 20,
    },
    target: { status: 'inprogress', stage: 1 },
  }),
  demoBa({
    key: 'vidarbha',
    companyCode: '1000',
    username: 'ba.4@demo.test',
    details: {
      companyName: 'Vidarbha Transport Company Private Limited',
      panNumber: 'AAGCV6402P',
      contactPersonName: 'Nitin Deshmukh',
      cinNumber: null,
      serviceId: 1,
      stateId: 27,
      cityId: 2703,
      addressLine1: 'Plot 7, Hingna MIDC',
      addressLine2: null,
      pinCode: '440016',
      companyLandline: '0712 255 3021',
      contactPersonMobileNumber: '9823067712',
      ownFleet: 45,
      attachedFleet: 110,
    },
    target: { status: 'inprogress', stage: 1 },
  }),
  demoBa({
    key: 'cauvery',
    companyCode: '1000',
    username: 'ba.5@demo.test',
    details: {
      companyName: 'Cauvery Freight Carriers Private Limited',
      panNumber: 'AADCC8813Q',
      contactPersonName: 'Kiran Gowda',
      cinNumber: 'U60221KA2013PTC069871',
      serviceId: 3,
      stateId: 29,
      cityId: 2901,
      addressLine1: '12, Peenya Industrial Area Phase 2',
      addressLine2: null,
      pinCode: '560058',
      companyLandline: '080 2839 4410',
      contactPersonMobileNumber: '9845011223',
      ownFleet: 22,
      attachedFleet: 58,
    },
    target: { status: 'inprogress', stage: 2 },
  }),
  demoBa({
    key: 'coromandel',
    companyCode: '1000',
    username: 'ba.6@demo.test',
    details: {
      companyName: 'Coromandel Warehousing Private Limited',
      panNumber: 'AAJCC3370R',
      contactPersonName: 'Lakshmi Narayanan',
      cinNumber: 'U63023TN2009PTC072215',
      serviceId: 2,
      stateId: 33,
      cityId: 3301,
      addressLine1: '45, GST Road, Guindy',
      addressLine2: 'Near Kathipara Junction',
      pinCode: '600032',
      companyLandline: '044 2234 5566',
      contactPersonMobileNumber: '9840122334',
      ownFleet: 8,
      attachedFleet: 15,
    },
    target: { status: 'verified' },
    // The additional-documents queue and a staff-uploaded concession, both waiting for review.
    story: { additionalDocument: true, concession: true },
    // SAP: parent code, vendor category approved, a child code for its GST state: processed once the ERP answers.
    sap: { target: 'processed', vendorCategory: 'Warehouse Service Provider', paymentTerms: 'Z030' },
  }),
  demoBa({
    key: 'sabarmati',
    companyCode: '1000',
    username: 'ba.7@demo.test',
    details: {
      companyName: 'Sabarmati Express Logistics Private Limited',
      panNumber: 'AAECS5128H',
      contactPersonName: 'Hardik Patel',
      cinNumber: 'U60230GJ2015PTC084512',
      serviceId: 4,
      stateId: 24,
      cityId: 2401,
      addressLine1: 'B-204, Narol Logistics Park',
      addressLine2: null,
      pinCode: '382405',
      companyLandline: null,
      contactPersonMobileNumber: '9825098765',
      ownFleet: 60,
      attachedFleet: 25,
    },
    target: {
      status: 'rejected',
      stage: 1,
      remarks: 'PAN card copy does not match the company name. Please correct the company name as per PAN and resubmit.',
    },
    // What the BA sees per item after the rejection: these two, with the reviewer's remarks; the rest approved.
    story: {
      rejectItems: {
        documentTypeId: 1,
        documentRemarks: 'The PAN card shows a different company name. Please upload the PAN card of Sabarmati Express Logistics Private Limited.',
        bankRemarks: 'The account name does not match the company name on the PAN. Please correct the account name.',
      },
    },
  }),
  demoBa({
    key: 'hooghly',
    companyCode: '2000',
    username: 'ba.8@demo.test',
    details: {
      companyName: 'Hooghly Shipping Agencies Private Limited',
      panNumber: 'AAKCH9041N',
      contactPersonName: 'Subhash Banerjee',
      cinNumber: 'U61100WB2008PTC124578',
      serviceId: 3,
      stateId: 19,
      cityId: 1901,
      addressLine1: '22, Strand Road, Fairlie Place',
      addressLine2: null,
      pinCode: '700001',
      companyLandline: '033 2230 1188',
      contactPersonMobileNumber: '9830045566',
      ownFleet: 10,
      attachedFleet: 35,
    },
    target: { status: 'pending', details: 'full' },
  }),
  demoBa({
    key: 'indraprastha',
    companyCode: '2000',
    username: 'ba.9@demo.test',
    details: {
      companyName: 'Indraprastha Last Mile Private Limited',
      panNumber: 'AALCI1187B',
      contactPersonName: 'Amit Chauhan',
      cinNumber: 'U74999DL2018PTC334521',
      serviceId: 4,
      stateId: 7,
      cityId: 701,
      addressLine1: 'A-31, Okhla Industrial Area Phase 1',
      addressLine2: null,
      pinCode: '110020',
      companyLandline: '011 4105 6677',
      contactPersonMobileNumber: '9811023456',
      ownFleet: 150,
      attachedFleet: 300,
    },
    target: { status: 'inprogress', stage: 1 },
  }),
  demoBa({
    key: 'kovai',
    companyCode: '2000',
    username: 'ba.10@demo.test',
    details: {
      companyName: 'Kovai Movers Private Limited',
      panNumber: 'AAMCK6650D',
      contactPersonName: 'Senthil Kumar',
      cinNumber: 'U60210TN2012PTC018765',
      serviceId: 1,
      stateId: 33,
      cityId: 3302,
      addressLine1: '118, Avinashi Road, Peelamedu',
      addressLine2: null,
      pinCode: '641004',
      companyLandline: null,
      contactPersonMobileNumber: '9842233445',
      ownFleet: 27,
      attachedFleet: 44,
    },
    target: { status: 'verified' },
    // Edit Profile: a new bank account the first reviewer approved; commercial.2000 gives the second approval.
    // Payments stay on hold until then.
    story: { bankChange: true, expiringDocument: true },
  }),
  demoBa({
    key: 'surat',
    companyCode: '2000',
    username: 'ba.11@demo.test',
    details: {
      companyName: 'Surat Textile Transport Private Limited',
      panNumber: 'AANCS2209E',
      contactPersonName: 'Bhavesh Shah',
      cinNumber: 'U60231GJ2010PTC061234',
      serviceId: 1,
      stateId: 24,
      cityId: 2402,
      addressLine1: 'Shop 9, Ring Road Textile Market',
      addressLine2: 'Salabatpura',
      pinCode: '395002',
      companyLandline: '0261 242 3344',
      contactPersonMobileNumber: '9824011122',
      ownFleet: 14,
      attachedFleet: 90,
    },
    target: {
      status: 'rejected',
      stage: 2,
      remarks: 'Commercial terms not agreed: fleet capacity declared is below the lane requirement. Please revise and resubmit.',
    },
  }),
  // SAP (issue 9): a verified BA whose vendor category waits for a second person (accounts.head@demo.test).
  demoBa({
    key: 'narmada',
    companyCode: '1000',
    username: 'ba.13@demo.test',
    details: {
      companyName: 'Narmada Roadlines Private Limited',
      panNumber: 'AAPCN4417G',
      contactPersonName: 'Rajesh Verma',
      cinNumber: 'U60231GJ2012PTC028814',
      serviceId: 1,
      stateId: 24,
      cityId: 2401,
      addressLine1: 'Plot 56, Changodar Industrial Estate',
      addressLine2: 'Sarkhej-Bavla Highway',
      pinCode: '382213',
      companyLandline: '02717 250 190',
      contactPersonMobileNumber: '9826045123',
      ownFleet: 35,
      attachedFleet: 80,
    },
    target: { status: 'verified' },
    sap: { target: 'verification-pending', vendorCategory: 'Transporter' },
  }),
  // SAP (issue 9): a verified BA with its parent code and vendor category, and a block request waiting for approval.
  demoBa({
    key: 'godavari',
    companyCode: '1000',
    username: 'ba.14@demo.test',
    details: {
      companyName: 'Godavari Fleet Services Private Limited',
      panNumber: 'AAQCG7304J',
      contactPersonName: 'Suresh Jadhav',
      cinNumber: null,
      serviceId: 1,
      stateId: 27,
      cityId: 2702,
      addressLine1: 'Plot B-18, Ranjangaon MIDC',
      addressLine2: 'Shirur Taluka',
      pinCode: '412220',
      companyLandline: null,
      contactPersonMobileNumber: '9822087654',
      ownFleet: 16,
      attachedFleet: 30,
    },
    target: { status: 'verified' },
    sap: {
      target: 'verified',
      vendorCategory: 'Fleet Owner',
      block: {
        reason: 'Poor service performance',
        comments: 'Repeated delays on the Pune-Nashik lane in October and November 2026; block until the performance review.',
        attachment: 'Performance review note: lane delays October-November 2026',
      },
    },
  }),
  // RFPs (issue 10): a verified BA with nothing else going on, invited to the demo RFPs (scripts/seed-rfps.ts):
  // a quote still to give, quotes in evaluation, lanes won (one shared), a backhaul invitation.
  demoBa({
    key: 'chamundi',
    companyCode: '1000',
    username: 'ba.verified@demo.test',
    details: {
      companyName: 'Chamundi Roadlines Private Limited',
      panNumber: 'AAZCC4417F',
      contactPersonName: 'Manjunath Hegde',
      cinNumber: 'U60231KA2012PTC063412',
      serviceId: 1,
      stateId: 29,
      cityId: 2902,
      addressLine1: 'Plot 52, Hebbal Industrial Area',
      addressLine2: 'Metagalli',
      pinCode: '570016',
      companyLandline: '0821 251 4477',
      contactPersonMobileNumber: '9845077120',
      ownFleet: 38,
      attachedFleet: 64,
    },
    target: { status: 'verified' },
    // Bill-Hub (issue 11): a child vendor code for its Karnataka GST row, which its invoices bill from.
    sap: { target: 'processed', vendorCategory: 'Transporter', paymentTerms: 'Z030' },
  }),
  // The same company as 'vidarbha' (same PAN, so the same GSTIN) registered again under company code 2000:
  // its reviewers see the duplicate-vendor warning linking the two.
  demoBa({
    key: 'vidarbha-2000',
    companyCode: '2000',
    username: 'ba.12@demo.test',
    details: {
      companyName: 'Vidarbha Transport Company Private Limited',
      panNumber: 'AAGCV6402P',
      contactPersonName: 'Rohit Deshmukh',
      cinNumber: null,
      serviceId: 1,
      stateId: 27,
      cityId: 2703,
      addressLine1: 'Plot 7, Hingna MIDC',
      addressLine2: null,
      pinCode: '440016',
      companyLandline: null,
      contactPersonMobileNumber: '9823067790',
      ownFleet: 45,
      attachedFleet: 110,
    },
    target: { status: 'inprogress', stage: 1 },
  }),
];

/**
 * Staff per company code: stage 1 by procurement, stage 2 by commercial. They sign in to try the console; the
 * seeded decisions are the "Demo seed" actor's, never theirs.
 */
const onApps = (roleName: Role, apps: AppAccess['appId'][]): AppAccess[] => apps.map((appId) => ({ appId, roleName }));
export const DEMO_STAFF: readonly DemoUser[] = [
  {
    username: 'procurement@demo.test',
    name: 'Priya Sharma',
    roles: ['MLL Procurement'],
    applications: onApps('MLL Procurement', ['onboard', 'RFP']),
    companyCodes: ['1000'],
    baId: null,
    mobileNo: '9820010001',
  },
  {
    username: 'commercial@demo.test',
    name: 'Rahul Mehta',
    roles: ['MLL Commercial'],
    applications: onApps('MLL Commercial', ['onboard', 'RFP', 'BillHub']),
    companyCodes: ['1000'],
    baId: null,
    mobileNo: '9820010002',
  },
  {
    username: 'admin@demo.test',
    name: 'Anil Kumar',
    roles: ['MLL-ADMIN'],
    applications: onApps('MLL-ADMIN', ['onboard', 'RFP', 'BillHub', 'SAP', 'Masters', 'Dashboard']),
    companyCodes: ['1000'],
    baId: null,
    mobileNo: '9820010003',
  },
  { username: 'auditor@demo.test', name: 'Sunita Rao', roles: ['Auditor'], companyCodes: ['1000'], baId: null, mobileNo: '9820010004' },
  {
    username: 'procurement.2000@demo.test',
    name: 'Vikram Singh',
    roles: ['MLL Procurement'],
    companyCodes: ['2000'],
    baId: null,
    mobileNo: '9820010005',
  },
  {
    username: 'commercial.2000@demo.test',
    name: 'Meera Iyer',
    roles: ['MLL Commercial'],
    companyCodes: ['2000'],
    baId: null,
    mobileNo: '9820010006',
  },
  // Holds both company codes, so the header's company selector has something to switch between.
  {
    username: 'engagement@demo.test',
    name: 'Kavita Nair',
    roles: ['BA Engagement Manager'],
    companyCodes: ['1000', '2000'],
    baId: null,
    mobileNo: '9820010007',
  },
  {
    username: 'accounts@demo.test',
    name: 'Neha Joshi',
    roles: ['MLL Accounts'],
    applications: onApps('MLL Accounts', ['onboard', 'SAP']),
    companyCodes: ['1000'],
    baId: null,
    mobileNo: '9820010009',
  },
  {
    username: 'accounts.head@demo.test',
    name: 'Sanjay Gupta',
    roles: ['MLL Accounts_HEAD'],
    applications: onApps('MLL Accounts_HEAD', ['onboard', 'SAP']),
    companyCodes: ['1000'],
    baId: null,
    mobileNo: '9820010010',
  },
  {
    username: 'former.staff@demo.test',
    name: 'Deepak Joshi',
    roles: ['MLL Operations'],
    companyCodes: ['1000'],
    baId: null,
    mobileNo: '9820010008',
    blockedReason: 'Left the company in October 2026',
  },
];

/**
 * A verified demo BA (users may be added once a BA is verified) has a colleague and a Bill-Hub user for its
 * GST state, so the BA users and Bill-Hub users screens are not empty.
 */
const coromandel = (): DemoBa => DEMO_BAS.find((b) => b.key === 'coromandel') as DemoBa;

export const DEMO_USERS: readonly DemoUser[] = [
  ...DEMO_STAFF,
  ...DEMO_BAS.map((b) => ({
    username: b.admin.username,
    name: b.admin.name,
    roles: ['BA Admin'] as Role[],
    applications: onApps('BA Admin', ['onboard', 'RFP', 'BillHub', 'Dashboard']),
    companyCodes: [b.companyCode],
    baId: b.baId,
    mobileNo: b.admin.mobile,
  })),
  {
    username: 'ba.user@demo.test',
    name: 'Sneha Kulkarni',
    roles: ['BA User'],
    applications: onApps('BA User', ['onboard', 'RFP']),
    companyCodes: [coromandel().companyCode],
    baId: coromandel().baId,
    mobileNo: '9890011122',
    department: 'Operations',
  },
  {
    username: 'billhub.tn@demo.test',
    name: 'Arun Prakash',
    roles: ['BA User'],
    applications: onApps('BA User', ['BillHub']),
    companyCodes: [coromandel().companyCode],
    baId: coromandel().baId,
    mobileNo: '9890011123',
    billHubStateId: 33,
  },
];

/** The logins the supervisor prints (the first five are the ones the issue names). */
export const DEMO_LOGINS: readonly { username: string; role: string }[] = [
  { username: 'ba.admin@demo.test', role: 'BA Admin (company details not yet submitted)' },
  { username: 'procurement@demo.test', role: 'MLL Procurement (stage 1 reviews, company code 1000; the demo RFPs, one in every status)' },
  { username: 'commercial@demo.test', role: 'MLL Commercial (stage 2 reviews, company code 1000)' },
  { username: 'admin@demo.test', role: 'MLL-ADMIN (company code 1000)' },
  { username: 'auditor@demo.test', role: 'Auditor (read-only: activity logs and event history)' },
  { username: 'engagement@demo.test', role: 'BA Engagement Manager (company codes 1000 and 2000)' },
  { username: 'ba.6@demo.test', role: 'BA Admin of a verified BA (add users, Bill-Hub users, an additional document and a concession in review)' },
  { username: 'ba.user@demo.test', role: 'BA User (a colleague of ba.6)' },
  { username: 'ba.verified@demo.test', role: 'BA Admin of a verified BA invited to the demo RFPs (a quote to give, lanes won, backhaul); Bill-Hub invoices in every status and a memo' },
  { username: 'ba.4@demo.test', role: 'BA Admin of a BA at stage 1, its documents waiting for review' },
  { username: 'ba.7@demo.test', role: 'BA Admin of a rejected BA: PAN card and bank account rejected with remarks' },
  { username: 'ba.10@demo.test', role: 'BA Admin (code 2000) of a verified BA whose bank change awaits commercial.2000; a document expires in a week' },
  { username: 'procurement.2000@demo.test', role: 'MLL Procurement (code 2000; ba.12 shares a GSTIN with ba.4: the duplicate warning)' },
  { username: 'accounts@demo.test', role: 'MLL Accounts (SAP: request codes, vendor category, block requests; ba.6 processed, nucleus vendors)' },
  { username: 'accounts.head@demo.test', role: "MLL Accounts_HEAD (SAP: approve ba.13's vendor category and ba.14's block request)" },
];

/** How the seed appears in activity logs and event metadata. */
export const DEMO_SEED_NAME = 'Demo seed';
const SEED_USER_ID = 'demo-seed';
export const SEED_ACTOR: Actor = { userId: SEED_USER_ID, role: SYSTEM_ROLE, name: DEMO_SEED_NAME };

/**
 * The seed deciding a review stage. decide() checks the actor's role against the stage (REVIEW_STAGE_ROLES)
 * and refuses one user approving both stages, so the seed acts in the stage's first role under a user id of
 * its own per stage: the rules stay as they are for everyone, and no demo person is credited with a decision.
 */
export const seedReviewer = (stage: 1 | 2): Actor => ({
  userId: `${SEED_USER_ID}:stage-${stage}`,
  // Never undefined (each stage has roles); a system role would be refused by decide(), not slip through.
  role: REVIEW_STAGE_ROLES[stage][0] ?? SYSTEM_ROLE,
  name: DEMO_SEED_NAME,
});

/**
 * The seed in the SAP roles (issue 9): requests codes and blocks as MLL Accounts, approves the vendor category
 * as MLL Accounts_HEAD (the decider refuses the setter approving), records the nucleus upload as MDM. Seed
 * actors under user ids of their own, like the stage reviewers: never a demo person.
 */
export const SEED_SAP_ACTORS: Record<SapActor, Actor> = {
  accounts: { userId: `${SEED_USER_ID}:accounts`, role: 'MLL Accounts', name: DEMO_SEED_NAME },
  'accounts-head': { userId: `${SEED_USER_ID}:accounts-head`, role: 'MLL Accounts_HEAD', name: DEMO_SEED_NAME },
  mdm: { userId: `${SEED_USER_ID}:mdm`, role: 'MDM', name: DEMO_SEED_NAME },
};

/**
 * The seed as RFP staff (issue 10): creates, floats and awards the demo RFPs as MLL Procurement, one of the RFP
 * deciders (domain/src/rfp/roles.ts), under a user id of its own like the SAP actors; BAs' quotes are
 * SEED_BA_ADMIN's.
 */
export const SEED_RFP_ACTOR: Actor = { userId: `${SEED_USER_ID}:procurement`, role: 'MLL Procurement', name: DEMO_SEED_NAME };

/** The seed as Bill-Hub commercial staff (issue 11): acknowledges, verifies and rejects the demo invoices. */
export const SEED_COMMERCIAL_ACTOR: Actor = { userId: `${SEED_USER_ID}:commercial`, role: 'MLL Commercial', name: DEMO_SEED_NAME };

export const isSeedActor = (actor: Actor): boolean =>
  actor.userId === SEED_USER_ID || actor.userId.startsWith(`${SEED_USER_ID}:`);

/** Every correlation id the seed writes starts with this; one a person's request carries does not. */
const SEED_CORRELATION = 'seed:';

/**
 * Whether the seed wrote this event: its own actor under its own correlation, or the lifecycle's system timer
 * (the review SLA) inside a lifecycle the seed started. Anything else is a person's doing.
 */
export const writtenBySeed = (event: Pick<StoredEvent, 'metadata'>): boolean =>
  event.metadata.correlationId.startsWith(SEED_CORRELATION) &&
  (isSeedActor(event.metadata.actor) || event.metadata.actor.role === SYSTEM_ROLE);

export type SeedDeps = {
  pool: Pool;
  store: EventStore;
  temporal: Client;
  taskQueue: string;
  log?: (line: string) => void;
  /** How long to wait for the projector to show the seeded data (login needs the users read model). */
  projectionTimeoutMs?: number;
  /** Review SLA for the demo lifecycles (the configured one). */
  reviewSlaMs?: number;
  /** Where the demo documents' bytes go (openBlobStore(config.files)): the events name them by sha256. */
  blobStore: BlobStore;
  /** How long the SAP stories wait for the ERP's parent codes before going on without them (default 60 s). */
  erpWaitMs?: number;
};

export type SeedResult = {
  /**
   * 'seeded': this run wrote the demo data or finished an interrupted run; 'already-seeded': an earlier run
   * finished, nothing was done; 'skipped': the store held other data before any seed ran, nothing was written.
   */
  outcome: 'seeded' | 'already-seeded' | 'skipped';
  usersCreated: number;
  basCreated: number;
  actions: number;
  /** Keys of demo BAs a person had acted on, which this run left as they stood. */
  leftAlone: string[];
  detail: string | null;
  /** The SAP stories and nucleus vendors (seed-vendor-codes.ts), when this run seeded. */
  sap?: SapSeedOutcome;
  /** The demo RFPs (seed-rfps.ts), when this run seeded. */
  rfps?: RfpSeedOutcome;
  /** The demo invoices and memo (seed-invoices.ts), when this run seeded. */
  invoices?: InvoiceSeedOutcome;
};

/** The demo password's hash, made once per run (hashing at the OWASP cost takes a moment; the password is public). */
let demoHash: Promise<string> | null = null;

async function registerUser(store: EventStore, pool: Pool, user: DemoUser): Promise<boolean> {
  const userId = userIdForUsername(user.username);
  const streamId = userStreamId(userId);
  const existing = await store.readStream(streamId);
  let created = false;
  if (existing.length === 0) {
    // The password as a credential row first (a fixed id: a re-run writes nothing new), then the event that
    // names it; the hash never enters the event (api/src/identity/store/credentials.ts).
    const credentialId = `seed-${userId}`;
    await saveCredential(pool, { credentialId, userId, hash: await (demoHash ??= hashPassword(DEMO_PASSWORD)) });
    created = await runSeedUserCommand(store, user, `seed:user:${user.username}`, {
      type: 'RegisterUser',
      userId,
      username: user.username,
      name: user.name,
      credentialId,
      roles: user.roles,
      companyCodes: user.companyCodes,
      baId: user.baId,
      mobileNo: user.mobileNo,
      department: user.department ?? null,
      applications: user.applications,
      ...(user.billHubStateId === undefined ? {} : { billHubStateId: user.billHubStateId }),
    });
  }
  // Only a user the seed itself just created is blocked: an account a person has used is left alone.
  if (created && user.blockedReason)
    await runSeedUserCommand(store, user, `seed:user:${user.username}:block`, { type: 'BlockUser', reason: user.blockedReason });
  return created;
}

async function runSeedUserCommand(store: EventStore, user: DemoUser, commandId: string, command: UserCommand): Promise<boolean> {
  try {
    await handleCommand(store, userStreamId(userIdForUsername(user.username)), userDecider, command, {
      commandId,
      actor: SEED_ACTOR,
      at: new Date().toISOString(),
      companyCode: user.companyCodes[0] ?? null,
      correlationId: `seed:user:${user.username}`,
      causationId: null,
      workflowId: null,
      requestId: null,
    });
    return true;
  } catch (e) {
    // Another seeder (a second start) did it a moment ago: that is the outcome we wanted.
    if (e instanceof ConcurrencyError || (e instanceof DomainError && (e.code === 'conflict' || e.code === 'rule'))) return false;
    throw e;
  }
}

/** Where a demo BA stands, and whether anyone but the seed has written to its stream. */
async function baProgress(store: EventStore, baId: string): Promise<{ state: OnboardingState; touched: boolean }> {
  const events = await store.readStream(baStreamId(baId));
  return {
    state: events.reduce((s, e) => evolve(s, { type: e.type, data: e.data } as OnboardingEvent), initialState),
    touched: events.some((e) => !writtenBySeed(e)),
  };
}

type Step = { name: string; action: OnboardingAction; actor: Actor; file?: DemoFile };

/** The seed as the BA's admin: only Edit Profile (a change request) needs that role; never a demo person. */
export const SEED_BA_ADMIN: Actor = { userId: `demo-seed:ba-admin`, role: 'BA Admin', name: 'Demo seed' };

const itemActor = (a: ItemStep['actor']): Actor =>
  a === 'ba' ? SEED_ACTOR : a === 'ba-admin' ? SEED_BA_ADMIN : seedReviewer(a === 'reviewer-2' ? 2 : 1);

const itemStep = (s: ItemStep): Step => ({
  name: s.name,
  action: { kind: 'command', command: s.command },
  actor: itemActor(s.actor),
  ...(s.file ? { file: s.file } : {}),
});

/** Whether the target lies beyond a stage-1 decision, so every item must be reviewed first. */
const decidesStage1 = (t: Target): boolean => !(t.status === 'pending' || (t.status === 'inprogress' && t.stage === 1));

/** The next action that moves a demo BA towards its target, or null once it stands there. */
export function nextStep(ba: DemoBa, s: OnboardingState): Step | null {
  const t = ba.target;
  // The BA's own steps too are the seed's: the BA's admin never typed these details in.
  const save = (d: CompanyDetailsInput): Step => ({
    name: 'save',
    action: { kind: 'saveDetails', details: d },
    actor: SEED_ACTOR,
  });
  const submit: Step = { name: 'submit', action: { kind: 'submit' }, actor: SEED_ACTOR };

  if (s.status === 'pending') {
    if (t.status === 'pending') {
      if (t.details === 'none' || s.details !== null) return null;
      if (t.details === 'full') return save(ba.details);
      // A draft: the first screenful typed in, the rest still to come.
      const { companyName, panNumber, contactPersonName, contactPersonMobileNumber } = ba.details;
      return save({ companyName, panNumber, contactPersonName, contactPersonMobileNumber });
    }
    if (s.details === null) return save(ba.details);
    // Every tab before the submission, as the portal requires (issue 8).
    const fill = nextFillStep(ba, s);
    return fill ? itemStep(fill) : submit;
  }
  if (s.status === 'inprogress' && s.stage !== null) {
    if (t.status === 'pending') return null;
    if (t.status === 'inprogress' && t.stage === s.stage) return null;
    // Stage 1 is decided only once a reviewer decided every item (approve, or the story's rejections).
    if (s.stage === 1 && decidesStage1(t)) {
      const review = nextReviewStep(ba, s);
      if (review) return itemStep(review);
    }
    if (t.status === 'rejected' && t.stage === s.stage)
      return {
        name: `reject-${s.stage}`,
        action: { kind: 'reject', stage: s.stage, remarks: t.remarks },
        actor: seedReviewer(s.stage),
      };
    return {
      name: `approve-${s.stage}`,
      action: { kind: 'approve', stage: s.stage, remarks: null },
      actor: seedReviewer(s.stage),
    };
  }
  if (s.status === 'verified' && t.status === 'verified') {
    const more = nextVerifiedStep(ba, s);
    return more ? itemStep(more) : null;
  }
  return null;
}

type BaOutcome = { created: boolean; actions: number; leftAlone: boolean };

async function seedBa(deps: SeedDeps, ba: DemoBa): Promise<BaOutcome> {
  let { state, touched } = await baProgress(deps.store, ba.baId);
  let created = false;
  if (state.status === 'none' && !touched) {
    const result = await startOnboarding(deps.temporal, deps.taskQueue, {
      baId: ba.baId,
      companyCode: ba.companyCode,
      adminUserId: userIdForUsername(ba.admin.username),
      mobileNo: ba.admin.mobile,
      email: ba.admin.username,
      actor: SEED_ACTOR,
      correlationId: `${SEED_CORRELATION}${ba.key}`,
      requestId: `${SEED_CORRELATION}${ba.key}:start`,
      reviewSlaMs: deps.reviewSlaMs,
    });
    created = !result.alreadyStarted;
    ({ state, touched } = await baProgress(deps.store, ba.baId));
  }
  let actions = 0;
  // Bounded: the longest path is save, every tab (about 10 items), submit, their reviews, two stages, the extras.
  for (let i = 0; i < 40; i++) {
    // Re-read before every step: a person may act on a demo BA while the seed runs (the api is up).
    if (touched) return { created, actions, leftAlone: true };
    const step = nextStep(ba, state);
    if (!step) return { created, actions, leftAlone: false };
    // The bytes first: the event only names the blob, and a document nobody can open is no demo.
    if (step.file) await putDemoFile(deps.blobStore, step.file);
    await sendOnboardingAction(deps.temporal, ba.baId, step.action, {
      actor: step.actor,
      // Same id on a rerun of the same step, so an interrupted seed never applies a step twice.
      requestId: `${SEED_CORRELATION}${ba.key}:${state.submission}:${step.name}`,
      correlationId: `${SEED_CORRELATION}${ba.key}`,
    }).catch((e: unknown) => {
      // Which demo BA and step, and the fields refused: a demo record the rules refuse is a bug of the seed.
      if (e instanceof DomainError) e.message = `demo BA ${ba.key}, step ${step.name}: ${e.message}${e.errors ? ` ${JSON.stringify(e.errors)}` : ''}`;
      throw e;
    });
    actions += 1;
    ({ state, touched } = await baProgress(deps.store, ba.baId));
  }
  throw new Error(`demo BA ${ba.key} did not reach its target state`);
}

/** Arbitrary key: one seeder at a time (a `npm run seed` beside `npm start`); the second then finds 'done'. */
const SEED_LOCK = 'ba-portal:demo-seed';

async function withSeedLock<T>(pool: Pool, run: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [SEED_LOCK]);
    return await run();
  } finally {
    await client.query('select pg_advisory_unlock(hashtextextended($1, 0))', [SEED_LOCK]).catch(() => undefined);
    client.release();
  }
}

/**
 * How many events the store holds that the reference-data loader did not write (it runs on every start before
 * the seed, so a fresh store is never quite empty). Reads from the start and stops after the first page that
 * holds another event: enough to tell "empty" from "holds work" without reading a long history.
 */
async function eventsBesidesReferenceData(store: EventStore, pageSize = 1000): Promise<number> {
  for (let after = 0; ; ) {
    const page = await store.readAll(after, pageSize);
    const others = page.filter((e) => !isReferenceDataEvent(e)).length;
    if (others > 0 || page.length < pageSize) return others;
    after = page[page.length - 1]?.globalPosition ?? after;
  }
}

export type SeedClaim = { status: 'running' | 'done' | 'skipped'; detail: string | null };

/**
 * Decides whether demo data may go in, and records it: an empty store with no seed row is claimed ('running'),
 * a store that already holds events with no seed row is 'skipped' for good (it holds real work, or data
 * from before this rule). `npm start` claims before it launches the api, so nothing can write in between and
 * /health reports not ready until the seed has finished. Safe to call again: a recorded status stands.
 */
export async function claimDemoSeed(deps: Pick<SeedDeps, 'pool' | 'store'>): Promise<SeedClaim> {
  return withSeedLock(deps.pool, () => claimUnlocked(deps));
}

async function claimUnlocked({ pool, store }: Pick<SeedDeps, 'pool' | 'store'>): Promise<SeedClaim> {
  const status = await demoSeedStatus(pool);
  if (status !== 'none') {
    const { rows } = await pool.query<{ detail: string | null }>('select detail from demo_seed where id');
    return { status, detail: rows[0]?.detail ?? null };
  }
  const held = await eventsBesidesReferenceData(store);
  if (held > 0) {
    const detail = `the event store already held ${held} events besides the reference data before the demo seed first ran: demo data goes only into an empty store`;
    await setDemoSeedStatus(pool, 'skipped', detail);
    return { status: 'skipped', detail };
  }
  await setDemoSeedStatus(pool, 'running');
  return { status: 'running', detail: null };
}

/**
 * Seeds the demo users and BAs into an empty store (or finishes a run a stopped start interrupted), then waits
 * until the read models show them and records 'done'. A no-op once done, and on a store it did not start.
 */
export async function seedDemo(deps: SeedDeps): Promise<SeedResult> {
  const log = deps.log ?? (() => undefined);
  return withSeedLock(deps.pool, async () => {
    const claim = await claimUnlocked(deps);
    const nothing = { usersCreated: 0, basCreated: 0, actions: 0, leftAlone: [], detail: claim.detail };
    if (claim.status === 'done') {
      log('demo data already seeded');
      return { outcome: 'already-seeded', ...nothing };
    }
    if (claim.status === 'skipped') {
      log(`demo data not seeded: ${claim.detail ?? 'the store held other data first'}`);
      return { outcome: 'skipped', ...nothing };
    }
    const result = await seedAll(deps, log);
    await setDemoSeedStatus(deps.pool, 'done', result.detail);
    return result;
  });
}

async function seedAll(deps: SeedDeps, log: (line: string) => void): Promise<SeedResult> {
  const started = Date.now();
  const timeoutMs = deps.projectionTimeoutMs ?? 60_000;
  // The lifecycles' activities check company codes, services and cities against the masters' read model:
  // on a first start the projector may still be reading the reference data loaded just before.
  const reference = await deps.store.headPosition();
  if (!(await waitForProjections(deps.pool, reference, { timeoutMs, names: ['masters'] })))
    throw new Error(`the masters read model did not catch up with the reference data within ${timeoutMs} ms: is the projector running?`);
  let usersCreated = 0;
  // Sequential: each hash takes a moment of CPU, and there are few users.
  for (const user of DEMO_USERS) if (await registerUser(deps.store, deps.pool, user)) usersCreated += 1;

  let basCreated = 0;
  let actions = 0;
  const leftAlone: string[] = [];
  // A few lifecycles at a time: enough to overlap round trips without swamping a 2-core machine.
  const queue = [...DEMO_BAS];
  const workers = Array.from({ length: 4 }, async () => {
    for (let ba = queue.shift(); ba; ba = queue.shift()) {
      const r = await seedBa(deps, ba);
      if (r.created) basCreated += 1;
      if (r.leftAlone) leftAlone.push(ba.key);
      actions += r.actions;
    }
  });
  const basSeeded = Promise.all(workers);
  // The RFPs' drafts meanwhile (they need no BA); each floats once the BAs stand verified (seed-rfps.ts).
  const rfpsStarted = Date.now();
  const rfpsSeeded = seedRfps(
    {
      pool: deps.pool,
      store: deps.store,
      temporal: deps.temporal,
      taskQueue: deps.taskQueue,
      blobStore: deps.blobStore,
      actors: { staff: SEED_RFP_ACTOR, ba: SEED_BA_ADMIN },
      writtenBySeed,
      correlationPrefix: SEED_CORRELATION,
      basVerified: basSeeded,
      log,
    },
    new Map(DEMO_BAS.map((b) => [b.key, { key: b.key, baId: b.baId, companyName: b.details.companyName }])),
  );
  // Never left unobserved: a failed BA phase throws just below, and the RFPs' own outcome is awaited with SAP's.
  rfpsSeeded.catch(() => undefined);
  await basSeeded;
  // The SAP area once the BAs stand verified: vendor codes, a block request, nucleus vendors (seed-vendor-codes.ts).
  const sapSeeded = seedSap(
    {
      pool: deps.pool,
      store: deps.store,
      temporal: deps.temporal,
      taskQueue: deps.taskQueue,
      blobStore: deps.blobStore,
      actors: SEED_SAP_ACTORS,
      writtenBySeed,
      correlationPrefix: SEED_CORRELATION,
      projectionTimeoutMs: timeoutMs,
      log,
      ...(deps.erpWaitMs === undefined ? {} : { erpWaitMs: deps.erpWaitMs }),
    },
    DEMO_BAS.flatMap((b) => (b.sap ? [{ ...b, sap: b.sap }] : [])),
    new Set(leftAlone),
  );
  const [sap, rfps] = await Promise.all([
    sapSeeded,
    // How long the RFPs take, for whoever watches a start (the e2e suites seed in every beforeAll).
    rfpsSeeded.then((r) => (log(`demo RFPs: ${r.commands} commands in ${Date.now() - rfpsStarted} ms`), r)),
  ]);
  // Bill-Hub once ba.verified's child vendor code exists (the SAP story above asked for it).
  const chamundi = DEMO_BAS.find((b) => b.key === 'chamundi') as DemoBa;
  const invoices = sap.leftAlone.includes(chamundi.key)
    ? null
    : await seedInvoices({
        pool: deps.pool,
        store: deps.store,
        temporal: deps.temporal,
        taskQueue: deps.taskQueue,
        blobStore: deps.blobStore,
        baId: chamundi.baId,
        companyCode: chamundi.companyCode,
        actors: { ba: SEED_BA_ADMIN, commercial: SEED_COMMERCIAL_ACTOR, accounts: SEED_SAP_ACTORS.accounts },
        submitTo: DEMO_SUBMIT_TO,
        writtenBySeed,
        correlationPrefix: SEED_CORRELATION,
        log,
        ...(deps.erpWaitMs === undefined ? {} : { erpWaitMs: deps.erpWaitMs }),
      });
  for (const number of invoices?.leftAlone ?? []) leftAlone.push(`invoice ${number}`);
  for (const key of sap.leftAlone) leftAlone.push(`${key} (SAP)`);
  for (const code of rfps.leftAlone) leftAlone.push(`${code} (RFP)`);
  // Release notes, so What's New has entries on a fresh start.
  const releases = await seedReleases(deps.store, SEED_ACTOR);

  const head = await deps.store.headPosition();
  if (!(await waitForProjections(deps.pool, head, { timeoutMs })))
    throw new Error(`the read models did not catch up with the demo data within ${timeoutMs} ms: is the projector running?`);
  leftAlone.sort();
  const detail =
    `${usersCreated} users and ${basCreated} business associates created, ${actions} onboarding steps applied, ` +
    `${releases} release notes published; SAP: ${sap.commands} vendor-code commands, ${sap.blockRequests} block requests, ` +
    `${sap.nucleusRows} nucleus vendor rows recorded` +
    (sap.waitingForErp.length > 0 ? ` (the ERP had not yet answered for ${sap.waitingForErp.join(', ')}; those stories stop at "requested")` : '') +
    `; RFPs: ${rfps.created} created in every status, ${rfps.commands} RFP commands sent` +
    (invoices ? `; Bill-Hub: ${invoices.invoices} invoices (${invoices.commands} commands)${invoices.memo ? `, memo ${invoices.memo}` : ''}` : '') +
    (leftAlone.length > 0 ? `; left alone, a person had acted on them: ${leftAlone.join(', ')}` : '');
  log(`demo data (${Date.now() - started} ms): ${detail}`);
  return { outcome: 'seeded', usersCreated, basCreated, actions, leftAlone, detail, sap, rfps, ...(invoices ? { invoices } : {}) };
}

/** `npm run seed`: against a running system (the worker and projector must be up). */
async function main(): Promise<void> {
  const { loadConfig } = await import('../platform/src/config');
  const { connectTemporal } = await import('../platform/src/temporal/connect');
  const { openDatabase } = await import('../platform/src/db/connect');
  const { openEventStore } = await import('../platform/src/event-store/open');
  const config = loadConfig();
  const log = (line: string) => console.log(`[seed] ${line}`);
  const db = await openDatabase(config, { mode: 'app', log });
  const store = await openEventStore(config, db.pool);
  const connection = await connectTemporal(config);
  const { openBlobStore } = await import('../platform/src/files');
  const blobStore = await openBlobStore(config.files);
  try {
    await seedDemo({
      pool: db.pool,
      store,
      temporal: new Client({ connection, namespace: config.temporal.namespace }),
      taskQueue: config.temporal.taskQueue,
      reviewSlaMs: config.review.slaMs,
      blobStore,
      log,
    });
  } finally {
    await blobStore.close();
    await connection.close();
    await store.close();
    await db.close();
  }
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
