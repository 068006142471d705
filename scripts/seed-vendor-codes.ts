import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Client } from '@temporalio/client';
import ExcelJS from 'exceljs';
import type { Pool } from 'pg';
import { v5 as uuidv5 } from 'uuid';
import { recordUpload, uploadIdOf } from '../api/src/mass-upload/record';
import { validateWorkbook, type GoodRow } from '../api/src/mass-upload/validate';
import { blockStreamId } from '../domain/src/block/events';
import type { EventStore } from '../domain/src/event-store/port';
import { columnsOf, type MassUploadField, type MassUploadSheet } from '../domain/src/mass-upload/columns';
import { massUploadStreamId, nucleusVendorStreamId } from '../domain/src/mass-upload/events';
import { BLOCK_REASONS } from '../domain/src/masters/reference-data/block-reasons';
import { PAYMENT_TERMS } from '../domain/src/masters/reference-data/payment-terms';
import { VENDOR_TYPES } from '../domain/src/masters/reference-data/vendor-types';
import { baStreamId, evolve, initialState, type OnboardingEvent, type OnboardingState } from '../domain/src/onboarding';
import { DomainError } from '../domain/src/shared/errors';
import type { Actor, StoredEvent } from '../domain/src/shared/events';
import type { BaFacts, VendorCodeCommand } from '../domain/src/vendor-code/commands';
import { vendorCodeStreamId, type VendorCodeEvent } from '../domain/src/vendor-code/events';
import { evolveVendorCode, initialVendorCodeState, type VendorCodeState } from '../domain/src/vendor-code/state';
import type { BlobStore } from '../platform/src/files';
import { waitForProjections } from '../projections/src/runner';
import { startBlockRequest } from '../workflows/src/block/client';
import { startMassUploadErp } from '../workflows/src/mass-upload/client';
import { baFactsOf } from '../workflows/src/vendor-code/activities';
import { sendVendorCodeCommand } from '../workflows/src/vendor-code/client';
import { demoPdf, putDemoFile, type DemoFile } from './seed-files';

/**
 * The SAP area's demo data (issue 9), sent through the same commands and workflows as real use: the vendor-code
 * lifecycle (workflows/src/vendor-code), a block request (workflows/src/block) and a nucleus mass upload
 * (api/src/mass-upload/record.ts, then its ERP workflow). Like seed-onboarding.ts, each planner answers the NEXT
 * command from the current state (null when the story stands), so an interrupted seed resumes where the
 * streams stand and a re-run finds nothing to do; anything a person has written to a stream leaves that story
 * alone.
 *
 * The ERP answers asynchronously (the sandbox ERP, through the worker's workflows): the seed sends a command,
 * and where the next one needs the ERP's answer (the parent code before the vendor category) it waits for it, up
 * to a bound (`erpWaitMs`). Past the bound the story stays where it is ("requested", the code arrives later by
 * itself) and the seed goes on; child codes and nucleus vendor codes are never waited for.
 */

/** Who acts: the seed in an SAP requester role, the seed in an SAP approver role, the seed as MDM (mass upload). */
export type SapActor = 'accounts' | 'accounts-head' | 'mdm';

/** What a verified demo BA shows in the SAP area. */
export type SapStory = {
  /**
   * verification-pending: parent code assigned, vendor category set, waiting for a second person's approval;
   * verified: the category approved too (no child codes); processed: and a child code per GST row.
   */
  target: 'verification-pending' | 'verified' | 'processed';
  /** A `vendor-types` master item's name. */
  vendorCategory: string;
  /** A `payment-terms` master item's code, for the child codes (processed). */
  paymentTerms?: string;
  /** A block request, once the parent code exists, left for a second person to approve. */
  block?: { reason: string; comments: string; attachment: string };
};

export type SapBa = {
  key: string;
  baId: string;
  companyCode: string;
  details: { companyName: string; panNumber: string };
  sap: SapStory;
};

export type SapStep =
  | { kind: 'command'; name: string; actor: SapActor; command: VendorCodeCommand }
  /** The next command needs the ERP's answer first (the parent code). */
  | { kind: 'wait'; what: string };

const masterId = <T extends { id: number | string }>(rows: readonly T[], match: (r: T) => boolean, what: string): number => {
  const row = rows.find(match);
  if (!row) throw new Error(`the demo SAP story names ${what}, which the reference data does not hold`);
  return Number(row.id);
};
export const vendorCategoryId = (name: string): number => masterId(VENDOR_TYPES, (r) => r.type === name, `vendor type "${name}"`);
export const paymentTermsId = (code: string): number => masterId(PAYMENT_TERMS, (r) => r.paymentTermCode === code, `payment term "${code}"`);
export const blockReasonId = (reason: string): number => masterId(BLOCK_REASONS, (r) => r.reason === reason, `block reason "${reason}"`);

/** The next vendor-code command of a demo BA's SAP story, a wait for the ERP, or null once it stands there. */
export function nextVendorCodeStep(ba: SapBa, facts: BaFacts, s: VendorCodeState): SapStep | null {
  if (!facts.verified) return null;
  const story = ba.sap;
  switch (s.parent.status) {
    case 'none':
      return { kind: 'command', name: 'request-parent', actor: 'accounts', command: { type: 'RequestParentCode' } };
    case 'requested':
      return { kind: 'wait', what: 'the parent code' };
    case 'refused':
    case 'rejected':
      // The ERP refused it, or someone sent it back: the story ends there (a new request is a person's call).
      return null;
    case 'assigned':
      break;
  }
  const category = s.vendorCategory;
  if (category.status === 'none')
    return {
      kind: 'command',
      name: 'vendor-category:set',
      actor: 'accounts',
      command: { type: 'SetVendorCategory', vendorCategoryId: vendorCategoryId(story.vendorCategory) },
    };
  if (category.status === 'rejected') return null;
  if (category.status === 'pending')
    // Approved by a second seed actor (the decider refuses the setter), unless a person is to approve it.
    return story.target === 'verification-pending'
      ? null
      : { kind: 'command', name: 'vendor-category:approve', actor: 'accounts-head', command: { type: 'ApproveVendorCategory' } };
  if (story.target !== 'processed') return null;
  // A child code per GST row of the BA, each with the story's payment term; their codes come when the ERP answers.
  for (const row of [...facts.gstRows].sort((a, b) => a.stateId - b.stateId)) {
    if (s.children[String(row.stateId)]) continue;
    return {
      kind: 'command',
      name: `request-child:${row.stateId}`,
      actor: 'accounts',
      command: { type: 'RequestChildCode', stateId: row.stateId, paymentTermsId: paymentTermsId(story.paymentTerms ?? 'Z030') },
    };
  }
  return null;
}

const SAP_NAMESPACE = '3e1c9b7a-5f24-4d8e-b6a1-92c0d4e7f315';
/** The block request's id (a uuid, like the API's): stable across runs, so a resumed seed finds it. */
export const demoBlockRequestId = (baKey: string): string => uuidv5(`demo-block:${baKey}`, SAP_NAMESPACE);

/** The block request's attachment: a one-page PDF naming the BA and why. */
export const demoBlockFile = (ba: SapBa, title: string): DemoFile =>
  demoPdf('block-request-note.pdf', [title, ba.details.companyName, `PAN ${ba.details.panNumber}`]);

// ---------------------------------------------------------------------------------------------------------
// Nucleus vendors: vendors in the ERP that were never onboarded through the portal, recorded by a mass upload.

type NucleusRow = Partial<Record<MassUploadField, string>>;

const nucleusParent = (v: {
  pan: string;
  name: string;
  street: string;
  postalCode: string;
  city: string;
  region: string;
  mobileNo: string;
  email: string;
  bankAccount: string;
  bankKey: string;
  bankName: string;
}): NucleusRow => ({
  accountGroup: 'ZDOM',
  bpRole: 'FLVN00',
  companyCode: '1000',
  purchaseOrganisation: 'MLPO',
  name: v.name,
  street: v.street,
  postalCode: v.postalCode,
  city: v.city,
  country: 'IN',
  region: v.region,
  currency: 'INR',
  mobileNo: v.mobileNo,
  mobileNoDept: 'Accounts',
  email: v.email,
  bankCountry: 'IN',
  bankAccount: v.bankAccount,
  bankKey: v.bankKey,
  bankName: v.bankName,
  gstinCategory: 'Registered',
  gstin: `${v.region}${v.pan}1Z5`,
  pan: v.pan,
  paymentTerm: 'Z030',
  reconAccount: '2110000',
});

/** Another GST place of business of a nucleus vendor (a child code per state). */
const nucleusChild = (parent: NucleusRow, place: { region: string; city: string; street: string; postalCode: string }): NucleusRow => ({
  ...parent,
  ...place,
  gstin: `${place.region}${parent.pan ?? ''}1Z5`,
});

const NUCLEUS_PARENTS: readonly NucleusRow[] = [
  nucleusParent({
    pan: 'AABCP5120R',
    name: 'Pune Packaging Industries Private Limited',
    street: 'Gat No. 112, Kharabwadi, Chakan',
    postalCode: '410501',
    city: 'Pune',
    region: '27',
    mobileNo: '9822310045',
    email: 'accounts@punepackaging.example',
    bankAccount: '50200011223344',
    bankKey: 'HDFC0000146',
    bankName: 'HDFC Bank',
  }),
  nucleusParent({
    pan: 'AACCB6632M',
    name: 'Bharat Tyres and Retreads Private Limited',
    street: 'Plot 41, Butibori MIDC',
    postalCode: '441108',
    city: 'Nagpur',
    region: '27',
    mobileNo: '9823044512',
    email: 'finance@bharattyres.example',
    bankAccount: '31550100009876',
    bankKey: 'BARB0BUTIBO',
    bankName: 'Bank of Baroda',
  }),
  nucleusParent({
    pan: 'AADCK2284E',
    name: 'Konkan Diesel Services Private Limited',
    street: 'Unit 7, Wagle Industrial Estate',
    postalCode: '400604',
    city: 'Thane',
    region: '27',
    mobileNo: '9820277310',
    email: 'billing@konkandiesel.example',
    bankAccount: '915020034567812',
    bankKey: 'UTIB0000312',
    bankName: 'Axis Bank',
  }),
  nucleusParent({
    pan: 'AAECG7715H',
    name: 'Gujarat Tarpaulin Works Private Limited',
    street: '23, Phase 1, Vatva GIDC',
    postalCode: '382445',
    city: 'Ahmedabad',
    region: '24',
    mobileNo: '9825066123',
    email: 'accounts@gujarattarpaulin.example',
    bankAccount: '38291047561',
    bankKey: 'SBIN0003021',
    bankName: 'State Bank of India',
  }),
  nucleusParent({
    pan: 'AAFCC9043L',
    name: 'Chennai Port Handling Services Private Limited',
    street: '14, Rajaji Salai, Parrys',
    postalCode: '600001',
    city: 'Chennai',
    region: '33',
    mobileNo: '9841055670',
    email: 'accounts@chennaiport.example',
    bankAccount: '6012345678',
    bankKey: 'IDIB000P012',
    bankName: 'Indian Bank',
  }),
];

/** Five vendors under company code 1000; two of them with a second GST state (a child code each). */
export const DEMO_NUCLEUS_VENDORS: { parents: readonly NucleusRow[]; children: readonly NucleusRow[] } = {
  parents: NUCLEUS_PARENTS,
  children: [
    nucleusChild(NUCLEUS_PARENTS[0]!, { region: '29', city: 'Bengaluru', street: '88, Bommasandra Industrial Area', postalCode: '560099' }),
    nucleusChild(NUCLEUS_PARENTS[3]!, { region: '27', city: 'Bhiwandi', street: 'Gala 12, Rahnal Logistics Park', postalCode: '421302' }),
  ],
};

export const DEMO_NUCLEUS_FILE_NAME = 'Nucleus-Mass-Upload-Demo.xlsx';

/** The workbook an MDM user would upload: the template's sheets and headers, the demo vendors as rows. */
export async function demoNucleusWorkbook(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheets: [MassUploadSheet, readonly NucleusRow[]][] = [
    ['Parent', DEMO_NUCLEUS_VENDORS.parents],
    ['Child', DEMO_NUCLEUS_VENDORS.children],
  ];
  for (const [sheet, rows] of sheets) {
    const cols = columnsOf('nucleus', sheet);
    const ws = wb.addWorksheet(sheet);
    ws.addRow(cols.map((c) => c.column));
    for (const r of rows) ws.addRow(cols.map((c) => r[c.field] ?? null));
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The demo workbook through the upload's own validation: every row must pass, as a real upload's must. */
export async function validatedNucleusUpload(): Promise<{ bytes: Buffer; sha256: string; rows: GoodRow[]; parents: number; children: number }> {
  const bytes = await demoNucleusWorkbook();
  const validation = await validateWorkbook('nucleus', Readable.from([bytes]));
  if (!validation.ok)
    throw new Error(
      `the demo nucleus workbook does not pass the mass-upload rules: ${
        validation.sheetError ?? JSON.stringify(validation.failed.flatMap((s) => s.rows.map((r) => [s.sheet, r.number, r.errors])))
      }`,
    );
  return {
    bytes,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    rows: validation.rows,
    parents: validation.parents,
    children: validation.children,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Running it

export type SapSeedDeps = {
  pool: Pool;
  store: EventStore;
  temporal: Client;
  taskQueue: string;
  blobStore: BlobStore;
  /** The seed's own actors in the SAP roles (never a demo person). */
  actors: Record<SapActor, Actor>;
  /** Whether the seed wrote this event (scripts/seed.ts writtenBySeed). */
  writtenBySeed: (event: Pick<StoredEvent, 'metadata'>) => boolean;
  /** Every correlation id the seed writes starts with this. */
  correlationPrefix: string;
  /** How long the whole SAP step waits for the ERP's parent codes (default 60 s). */
  erpWaitMs?: number;
  projectionTimeoutMs?: number;
  log?: (line: string) => void;
};

export type SapSeedOutcome = {
  /** Vendor-code commands sent this run. */
  commands: number;
  /** Block requests started this run. */
  blockRequests: number;
  /** Nucleus vendor rows recorded this run (0 when an earlier run did). */
  nucleusRows: number;
  /** Demo BAs whose parent code the ERP had not given within the wait: their story goes no further this run. */
  waitingForErp: string[];
  /** Stories a person had acted on (a stream holds an event the seed did not write), left as they stood. */
  leftAlone: string[];
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Where a demo BA's SAP story stands, and whether anyone but the seed wrote to its onboarding or vendor-code stream. */
async function sapProgress(deps: SapSeedDeps, ba: SapBa): Promise<{ onboarding: OnboardingState; vendorCode: VendorCodeState; touched: boolean }> {
  const [baEvents, vcEvents] = await Promise.all([
    deps.store.readStream(baStreamId(ba.baId)),
    deps.store.readStream(vendorCodeStreamId(ba.baId, ba.companyCode)),
  ]);
  return {
    onboarding: baEvents.reduce((s, e) => evolve(s, { type: e.type, data: e.data } as OnboardingEvent), initialState),
    vendorCode: vcEvents.reduce(
      (s, e) => evolveVendorCode(s, { type: e.type, data: e.data } as VendorCodeEvent, e.metadata.at),
      initialVendorCodeState,
    ),
    touched: [...baEvents, ...vcEvents].some((e) => !deps.writtenBySeed(e)),
  };
}

type BaSapResult = { commands: number; blockRequests: number; waiting: boolean; leftAlone: string | null };

async function seedBaSap(deps: SapSeedDeps, ba: SapBa, deadline: number): Promise<BaSapResult> {
  const log = deps.log ?? (() => undefined);
  const correlationId = `${deps.correlationPrefix}${ba.key}`;
  const result: BaSapResult = { commands: 0, blockRequests: 0, waiting: false, leftAlone: null };
  let progress = await sapProgress(deps, ba);
  // Bounded: parent, category set and approval, a child per GST row (a demo BA has one or two).
  for (let sent = 0; ; ) {
    if (progress.touched) return { ...result, leftAlone: ba.key };
    const step = nextVendorCodeStep(ba, baFactsOf(progress.onboarding, ba.companyCode), progress.vendorCode);
    if (!step) break;
    if (step.kind === 'wait') {
      if (Date.now() >= deadline) {
        log(`demo SAP story of ${ba.key}: the ERP has not answered with ${step.what} yet; it arrives later, the story stops here`);
        return { ...result, waiting: true };
      }
      await sleep(250);
    } else {
      if (sent++ >= 10) throw new Error(`the demo SAP story of ${ba.key} does not settle`);
      try {
        await sendVendorCodeCommand(deps.temporal, deps.taskQueue, { baId: ba.baId, companyCode: ba.companyCode }, step.command, {
          actor: deps.actors[step.actor],
          // Same id on a rerun of the same step: an interrupted seed never applies a step twice.
          requestId: `${correlationId}:sap:${step.name}`,
          correlationId,
        });
      } catch (e) {
        // Refused: someone acted in between (the re-read says who), or the lifecycle refuses the story.
        if (!(e instanceof DomainError)) throw e;
        const again = await sapProgress(deps, ba);
        if (again.touched) return { ...result, leftAlone: ba.key };
        throw new Error(`the demo SAP story of ${ba.key}: ${step.name} refused: ${e.message}`);
      }
      result.commands += 1;
    }
    progress = await sapProgress(deps, ba);
  }
  const block = ba.sap.block;
  if (block && progress.vendorCode.parent.parentCode) {
    const started = await seedBlockRequest(deps, ba, block);
    if (started === 'left-alone') return { ...result, leftAlone: ba.key };
    if (started) result.blockRequests += 1;
  }
  return result;
}

/**
 * A block request of the BA's parent code, as MLL Accounts asks for one: reason from the block-reasons master,
 * comments, a PDF attachment (its bytes in the BlobStore first). Left pending for a second person.
 */
async function seedBlockRequest(deps: SapSeedDeps, ba: SapBa, block: NonNullable<SapStory['block']>): Promise<boolean | 'left-alone'> {
  const requestId = demoBlockRequestId(ba.key);
  // Recorded by an earlier run (whatever has happened to it since): nothing to do.
  if ((await deps.store.readStream(blockStreamId(requestId))).length > 0) return false;
  // The request resolves the vendor code from the read models (the BA's PAN, its vendor_codes row).
  const timeoutMs = deps.projectionTimeoutMs ?? 60_000;
  await waitForProjections(deps.pool, await deps.store.headPosition(), { timeoutMs, names: ['business_associates', 'vendor_codes'] });
  const file = demoBlockFile(ba, block.attachment);
  await putDemoFile(deps.blobStore, file);
  const correlationId = `${deps.correlationPrefix}${ba.key}`;
  try {
    await startBlockRequest(deps.temporal, deps.taskQueue, {
      requestId,
      action: 'block',
      baId: ba.baId,
      pan: null,
      level: 'parent',
      companyCode: ba.companyCode,
      childCode: null,
      reasonId: String(blockReasonId(block.reason)),
      comments: block.comments,
      file: file.stored,
      endDate: null,
      requestedBy: deps.actors.accounts,
      correlationId,
    });
  } catch (e) {
    // Another request for this vendor code is open (a person's): theirs stands.
    if (e instanceof DomainError && e.code === 'conflict') return 'left-alone';
    throw e;
  }
  return true;
}

/**
 * The nucleus vendors: the demo workbook validated and recorded by the mass upload's own recording function as
 * the seed's MDM actor, then its ERP step started (the vendor codes come when the ERP answers). A PAN whose
 * stream holds another upload's rows (a person's) leaves the whole upload alone.
 */
async function seedNucleusVendors(deps: SapSeedDeps): Promise<{ rows: number; leftAlone: boolean }> {
  const log = deps.log ?? (() => undefined);
  const pans = DEMO_NUCLEUS_VENDORS.parents.map((r) => r.pan ?? '');
  const streams = await Promise.all(pans.map((pan) => deps.store.readStream(nucleusVendorStreamId(pan))));
  const uploadOf = (e: StoredEvent) => (e.data as { uploadId?: unknown }).uploadId;
  const seedUploads = new Set(
    streams.flat().filter((e) => e.type === 'NucleusVendorRecorded' && e.metadata.actor.userId === deps.actors.mdm.userId).map(uploadOf),
  );
  if (streams.flat().some((e) => !seedUploads.has(uploadOf(e)))) return { rows: 0, leftAlone: true };
  const [earlier] = [...seedUploads].filter((u): u is string => typeof u === 'string');
  const recorded = earlier !== undefined && (await deps.store.readStream(massUploadStreamId(earlier))).some((e) => e.type === 'MassUploadRecorded');
  let uploadId = earlier;
  let rows = 0;
  if (!recorded) {
    const upload = await validatedNucleusUpload();
    // The same upload an interrupted run began (its id), else the file's (the API's rule: kind + sha256).
    uploadId = earlier ?? uploadIdOf('nucleus', upload.sha256);
    await putDemoFile(deps.blobStore, {
      bytes: upload.bytes,
      stored: { name: DEMO_NUCLEUS_FILE_NAME, size: upload.bytes.length, type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', sha256: upload.sha256 },
    });
    const result = await recordUpload(
      { pool: deps.pool, store: deps.store },
      {
        kind: 'nucleus',
        uploadId,
        fileName: DEMO_NUCLEUS_FILE_NAME,
        sha256: upload.sha256,
        rows: upload.rows,
        parents: upload.parents,
        children: upload.children,
        actor: deps.actors.mdm,
        requestId: `${deps.correlationPrefix}nucleus`,
      },
    );
    rows = result.created;
  }
  if (uploadId === undefined) return { rows, leftAlone: false };
  try {
    // Started once per upload (a completed or running one is found and left as it is).
    await startMassUploadErp(deps.temporal, deps.taskQueue, { uploadId, kind: 'nucleus' });
  } catch (e) {
    log(`demo nucleus vendors: the ERP step could not be started (${e instanceof Error ? e.message : String(e)}); the rows stand`);
  }
  return { rows, leftAlone: false };
}

/**
 * The SAP stories of the demo BAs (each after its onboarding stands verified) and the nucleus vendors. `skip`:
 * keys of BAs the onboarding seed left alone this run.
 */
export async function seedSap(deps: SapSeedDeps, bas: readonly SapBa[], skip: ReadonlySet<string> = new Set()): Promise<SapSeedOutcome> {
  const deadline = Date.now() + (deps.erpWaitMs ?? 60_000);
  const outcome: SapSeedOutcome = { commands: 0, blockRequests: 0, nucleusRows: 0, waitingForErp: [], leftAlone: [] };
  const stories = bas.filter((b) => !skip.has(b.key)).map(async (ba) => {
    const r = await seedBaSap(deps, ba, deadline);
    outcome.commands += r.commands;
    outcome.blockRequests += r.blockRequests;
    if (r.waiting) outcome.waitingForErp.push(ba.key);
    if (r.leftAlone) outcome.leftAlone.push(r.leftAlone);
  });
  const nucleus = seedNucleusVendors(deps).then((r) => {
    outcome.nucleusRows = r.rows;
    if (r.leftAlone) outcome.leftAlone.push('nucleus vendors');
  });
  await Promise.all([...stories, nucleus]);
  outcome.waitingForErp.sort();
  outcome.leftAlone.sort();
  return outcome;
}
