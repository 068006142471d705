import { z } from 'zod';
import { SYSTEM_ROLE } from '../identity/roles';
import type { CommandMetadata, Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { Actor } from '../shared/events';
import { safeText } from '../validation/fields';
import type { AwardRfp, FloatRfp, RfpCommand, SaveRfpStep, SubmitLaneResponses, UploadLanes } from './commands';
import type { RfpEvent, RfpStepSaved } from './events';
import { checkLanes, checkQuotes, headerDataProblems, headerDataSchema } from './lanes';
import { isAcceptedIn } from './lifecycle';
import { rfpMessages } from './messages';
import type { AwardedShare, LaneColumn } from './model';
import { mayRfp, type RfpAction } from './roles';
import { floatPayloadSchema, parseRfpHeader, parseRfpStep2, parseWith, rfpStep4Schema, rfpStep5Schema, type Parsed } from './rules';
import { evolveRfp, initialRfpState, progressOf, quotesOf, rfpTypeOf, type RfpState } from './state';
import { isStepEnabled } from './wizard';

/**
 * The RFP lifecycle's rules (stream `rfp-<rfpCode>`). Order of checks for every command: the actor's role
 * (403), the RFP exists (404; for a BA, also that it was floated to it), the status allows the command (422,
 * lifecycle.ts), then the payload (400) and the command's own rules (422).
 */

/** The end of a due date (YYYY-MM-DD) in India (+05:30, no DST): bidding is open through that whole day. */
export const biddingDeadlineOf = (dueDate: string): string => new Date(`${dueDate}T23:59:59.999+05:30`).toISOString();

const ACTION_OF: Record<RfpCommand['type'], RfpAction> = {
  CreateRfpDraft: 'create',
  SaveRfpStep: 'editDraft',
  UploadLanes: 'uploadLanes',
  FloatRfp: 'float',
  SubmitLaneResponses: 'respond',
  CloseBidding: 'closeBidding',
  AwardRfp: 'award',
  CloseRfp: 'close',
  ReopenRfp: 'reopen',
  InviteBackhaul: 'inviteBackhaul',
  UploadTerms: 'uploadTerms',
};

const forbiddenMessage = (action: RfpAction): string => {
  if (action === 'respond') return rfpMessages.notBidder;
  if (action === 'closeBidding' || action === 'award' || action === 'close' || action === 'reopen') return rfpMessages.notDecider;
  return rfpMessages.notStaff;
};

const invalid = (errors: Record<string, string>, message: string = Object.values(errors)[0] ?? rfpMessages.invalid) =>
  new DomainError('validation', message, errors);

/** JSON with sorted keys: an event read back from the store (jsonb) does not keep the key order it was written in. */
const canonical = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(',')}]`
    : v !== null && typeof v === 'object'
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : JSON.stringify(v);

const sameKeys = (a: readonly string[], b: readonly string[]) => [...a].sort().join(',') === [...b].sort().join(',');

const isoInstant = z.iso.datetime({ offset: true });
const instantMs = (value: unknown): number | null => (isoInstant.safeParse(value).success ? Date.parse(value as string) : null);

function decideSaveStep(command: SaveRfpStep, state: RfpState): RfpEvent[] | DomainError {
  const rfpCode = state.rfpCode ?? '';
  const step = command.step;
  if (![1, 2, 3, 4, 5].includes(step)) return invalid({ step: 'Please choose a step from 1 to 5' });
  if (!isStepEnabled(progressOf(state), step)) return new DomainError('rule', rfpMessages.stepNotEnabled(step));
  const saved = (data: RfpStepSaved['data']): RfpEvent[] => [{ type: 'RfpStepSaved', data } as RfpStepSaved];
  switch (step) {
    case 1: {
      const parsed = parseRfpHeader(command.data);
      if ('errors' in parsed) return invalid(parsed.errors);
      if (parsed.data.rfpCode !== rfpCode) return invalid({ rfpCode: rfpMessages.rfpCodeFixed });
      return saved({ rfpCode, step: 1, data: parsed.data, clearedSteps: [], clearsLanes: false });
    }
    case 2: {
      const parsed = parseRfpStep2(command.data);
      if ('errors' in parsed) return invalid(parsed.errors);
      const before = state.steps[2];
      const next = parsed.data;
      // The sheet's columns are the chosen properties: choosing others (or another type) voids the sheet.
      const voidsSheet =
        before !== null &&
        (before.rfpType !== next.rfpType || !sameKeys(before.mllProperties, next.mllProperties) || !sameKeys(before.baProperties, next.baProperties));
      return saved({ rfpCode, step: 2, data: next, clearedSteps: voidsSheet && state.steps[3] ? [3] : [], clearsLanes: voidsSheet && state.lanes.length > 0 });
    }
    case 3: {
      const step2 = state.steps[2];
      if (!step2) return new DomainError('rule', rfpMessages.stepNotEnabled(3));
      const headerData = (command.data as { headerData?: unknown } | null)?.headerData;
      const problems = headerDataProblems(headerData, step2);
      if (problems) return invalid(problems);
      const columns = headerDataSchema.parse(headerData) as LaneColumn[];
      const changed = canonical(columns) !== canonical(state.steps[3]?.headerData ?? null);
      return saved({ rfpCode, step: 3, data: { headerData: columns }, clearedSteps: [], clearsLanes: changed && state.lanes.length > 0 });
    }
    case 4: {
      const parsed = parseWith(rfpStep4Schema, command.data);
      if ('errors' in parsed) return invalid(parsed.errors);
      return saved({ rfpCode, step: 4, data: parsed.data, clearedSteps: [], clearsLanes: false });
    }
    case 5: {
      const parsed = parseWith(rfpStep5Schema, command.data);
      if ('errors' in parsed) return invalid(parsed.errors);
      return saved({ rfpCode, step: 5, data: parsed.data, clearedSteps: [], clearsLanes: false });
    }
    default: {
      const never: never = step;
      return never;
    }
  }
}

function decideUploadLanes(command: UploadLanes, state: RfpState): RfpEvent[] | DomainError {
  const step2 = state.steps[2];
  if (!step2) return new DomainError('rule', rfpMessages.stepNotEnabled(3));
  const problems = headerDataProblems(command.headerData, step2);
  if (problems) return invalid(problems);
  const headerData = headerDataSchema.parse(command.headerData) as LaneColumn[];
  const lanes = checkLanes(headerData, Array.isArray(command.lanes) ? command.lanes : []);
  if (Object.keys(lanes.errors).length > 0) return invalid(lanes.errors);
  return [
    {
      type: 'RfpLanesUploaded',
      data: { rfpCode: state.rfpCode ?? '', rfpType: step2.rfpType, headerData, lanes: lanes.value, file: command.file },
    },
  ];
}

function decideFloat(command: FloatRfp, state: RfpState, meta: Pick<CommandMetadata, 'at' | 'actor'>): RfpEvent[] | DomainError {
  const parsed: Parsed<z.infer<typeof floatPayloadSchema>> = parseWith(floatPayloadSchema, command.payload);
  if ('errors' in parsed) return invalid(parsed.errors);
  const { baIds, comments, floatToAll, rfpType } = parsed.data;
  if (rfpType !== rfpTypeOf(state)) return invalid({ rfpType: rfpMessages.rfpTypeMismatch });
  if (state.lanes.length === 0) return new DomainError('rule', rfpMessages.noLanes);
  const newBaIds = baIds.filter((id) => !(id in state.invited));
  const invitedAfter = Object.keys(state.invited).length + newBaIds.length;
  // Spec 001 §4: "Floating requires at least one new BA unless floating to all" (and to all means someone).
  if ((!floatToAll && newBaIds.length === 0) || invitedAfter === 0) return new DomainError('rule', rfpMessages.addNewBa);
  let dueAt = state.dueAt;
  let round = state.round;
  if (state.status === 'draft') {
    const asked = command.dueAt ?? biddingDeadlineOf(state.header?.dueDate ?? '');
    const ms = instantMs(asked);
    if (ms === null) return invalid({ dueAt: rfpMessages.dueAtPast });
    if (ms <= Date.parse(meta.at)) return new DomainError('rule', rfpMessages.dueAtPast);
    dueAt = new Date(ms).toISOString();
    round = 1;
  }
  return [
    {
      type: 'RfpFloated',
      data: { rfpCode: state.rfpCode ?? '', round, rfpType, baIds: newBaIds, comments, floatToAll, dueAt: dueAt ?? '', floatedBy: meta.actor },
    },
  ];
}

function decideSubmit(command: SubmitLaneResponses, state: RfpState, meta: Pick<CommandMetadata, 'at' | 'actor'>): RfpEvent[] | DomainError {
  if (command.round !== state.round) return new DomainError('conflict', rfpMessages.staleRound);
  if (state.dueAt === null || Date.parse(meta.at) >= Date.parse(state.dueAt)) return new DomainError('rule', rfpMessages.dueDatePassed);
  if (command.baBlocked) return new DomainError('forbidden', rfpMessages.baBlocked);
  const columns = state.steps[3]?.headerData ?? [];
  const quotes = command.quotes !== null && typeof command.quotes === 'object' ? command.quotes : {};
  const checked = checkQuotes(columns, new Set(state.lanes.map((l) => l.laneId)), quotes);
  if (Object.keys(checked.errors).length > 0) return invalid(checked.errors);
  return [
    {
      type: 'LaneResponsesSubmitted',
      data: { rfpCode: state.rfpCode ?? '', round: state.round, baId: command.baId, quotes: checked.value, submittedBy: meta.actor },
    },
  ];
}

/** A share in percent: more than 0, at most 100, at most 2 decimals; counted in hundredths so 33.33 + 33.33 + 33.34 is exactly 100. */
const hundredthsOf = (share: unknown): number | null => {
  if (typeof share !== 'number' || !Number.isFinite(share) || share <= 0 || share > 100) return null;
  const hundredths = Math.round(share * 100);
  return Math.abs(share * 100 - hundredths) < 1e-6 ? hundredths : null;
};

function decideAward(command: AwardRfp, state: RfpState, actor: Actor): RfpEvent[] | DomainError {
  const entries = command.lanes !== null && typeof command.lanes === 'object' ? Object.entries(command.lanes) : [];
  if (entries.length === 0) return invalid({ lanes: rfpMessages.noAwards });
  const shapeErrors: Record<string, string> = {};
  for (const [laneId, shares] of entries) {
    const key = `lanes.${laneId}`;
    if (!Array.isArray(shares) || shares.length === 0) {
      shapeErrors[key] = rfpMessages.sharesSum(laneId);
      continue;
    }
    const parts = shares.map((s) => hundredthsOf(s?.sharePercent));
    if (parts.some((p) => p === null) || shares.some((s) => typeof s?.baId !== 'string' || s.baId.trim() === '')) shapeErrors[key] = rfpMessages.sharePositive;
    else if (new Set(shares.map((s) => s.baId)).size !== shares.length) shapeErrors[key] = rfpMessages.duplicateBaInLane(laneId);
    else if (parts.reduce<number>((sum, p) => sum + (p ?? 0), 0) !== 10_000) shapeErrors[key] = rfpMessages.sharesSum(laneId);
  }
  if (Object.keys(shapeErrors).length > 0) return invalid(shapeErrors);

  const laneIds = new Set(state.lanes.map((l) => l.laneId));
  const ruleErrors: Record<string, string> = {};
  const lanes: Record<string, AwardedShare[]> = {};
  for (const [laneId, shares] of entries) {
    if (!laneIds.has(laneId)) {
      ruleErrors[`lanes.${laneId}`] = rfpMessages.unknownLane(laneId);
      continue;
    }
    const awarded: AwardedShare[] = [];
    for (const { baId, sharePercent } of shares) {
      // Contract rates are the awarded BA's quote for the lane in this round; no quote, no award.
      const rates = quotesOf(state, baId)[laneId];
      if (!rates) ruleErrors[`lanes.${laneId}`] ??= rfpMessages.notQuoted(baId, laneId);
      else awarded.push({ baId, sharePercent, rates });
    }
    lanes[laneId] = awarded;
  }
  if (Object.keys(ruleErrors).length > 0) return new DomainError('rule', Object.values(ruleErrors)[0] ?? rfpMessages.invalid, ruleErrors);
  return [{ type: 'RfpAwarded', data: { rfpCode: state.rfpCode ?? '', round: state.round, lanes, awardedBy: actor } }];
}

const remarksSchema = z
  .string()
  .trim()
  .pipe(safeText())
  .nullish()
  .transform((v) => v ?? '');

const isPdf = (file: unknown): boolean => {
  const f = file as { name?: unknown; size?: unknown; type?: unknown; sha256?: unknown } | null;
  return (
    f !== null &&
    typeof f === 'object' &&
    typeof f.name === 'string' &&
    /\.pdf$/i.test(f.name) &&
    f.type === 'application/pdf' &&
    typeof f.size === 'number' &&
    f.size > 0 &&
    typeof f.sha256 === 'string' &&
    /^[0-9a-f]{64}$/.test(f.sha256)
  );
};

export function decideRfp(command: RfpCommand, state: RfpState, meta: Pick<CommandMetadata, 'at' | 'actor'>): RfpEvent[] | DomainError {
  const action = ACTION_OF[command.type];
  const actor = meta.actor;
  if (!mayRfp(action, actor.role)) return new DomainError('forbidden', forbiddenMessage(action));
  if (state.status === 'none' && command.type !== 'CreateRfpDraft') return new DomainError('not_found', rfpMessages.notFound);
  // An RFP not floated to a BA does not exist for it.
  if (command.type === 'SubmitLaneResponses' && !(command.baId in state.invited)) return new DomainError('not_found', rfpMessages.notFound);
  if (!isAcceptedIn(command.type, state.status)) {
    if (command.type === 'CreateRfpDraft') return new DomainError('conflict', rfpMessages.exists(state.rfpCode ?? ''));
    // The due-date timer may fire after staff closed bidding, closed or reopened: nothing left to do.
    if (command.type === 'CloseBidding' && actor.role === SYSTEM_ROLE) return [];
    if (command.type === 'SubmitLaneResponses') return new DomainError('rule', rfpMessages.biddingNotOpen);
    return new DomainError('rule', rfpMessages.notAllowedNow(state.status));
  }
  const rfpCode = state.rfpCode ?? '';
  switch (command.type) {
    case 'CreateRfpDraft': {
      const parsed = parseRfpHeader(command.header);
      if ('errors' in parsed) return invalid(parsed.errors);
      return [{ type: 'RfpDraftCreated', data: { rfpCode: parsed.data.rfpCode, header: parsed.data, createdBy: actor } }];
    }
    case 'SaveRfpStep':
      return decideSaveStep(command, state);
    case 'UploadLanes':
      return decideUploadLanes(command, state);
    case 'FloatRfp':
      return decideFloat(command, state, meta);
    case 'SubmitLaneResponses':
      return decideSubmit(command, state, meta);
    case 'CloseBidding': {
      const byTimer = actor.role === SYSTEM_ROLE;
      // A timer set for an earlier round must not close the round a reopen started.
      if (byTimer && command.round !== undefined && command.round !== state.round) return [];
      return [{ type: 'RfpBiddingClosed', data: { rfpCode, round: state.round, reason: byTimer ? 'due' : 'staff', closedBy: actor } }];
    }
    case 'AwardRfp':
      return decideAward(command, state, actor);
    case 'CloseRfp': {
      const remarks = remarksSchema.safeParse(command.remarks);
      if (!remarks.success) return invalid({ remarks: rfpMessages.comments });
      return [{ type: 'RfpClosed', data: { rfpCode, round: state.round, remarks: remarks.data, closedBy: actor } }];
    }
    case 'ReopenRfp': {
      const ms = instantMs(command.dueAt);
      if (ms === null) return invalid({ dueAt: rfpMessages.dueAtPast });
      if (ms <= Date.parse(meta.at)) return new DomainError('rule', rfpMessages.dueAtPast);
      return [{ type: 'RfpReopened', data: { rfpCode, round: state.round + 1, dueAt: new Date(ms).toISOString(), reopenedBy: actor } }];
    }
    case 'InviteBackhaul': {
      if (typeof command.isInvited !== 'boolean') return invalid({ isInvited: 'Please say whether the BA is invited' });
      if (!(command.baId in state.invited)) return new DomainError('rule', rfpMessages.baNotInRfp);
      if ((state.backhaul[command.baId] ?? false) === command.isInvited) return [];
      return [{ type: 'BackhaulInvitationChanged', data: { rfpCode, baId: command.baId, isInvited: command.isInvited, by: actor } }];
    }
    case 'UploadTerms': {
      if (!isPdf(command.file)) return invalid({ file: rfpMessages.termsPdf });
      if (state.terms?.sha256 === command.file.sha256 && state.terms.name === command.file.name) return [];
      return [{ type: 'RfpTermsUploaded', data: { rfpCode, file: command.file, uploadedBy: actor } }];
    }
    default: {
      const never: never = command;
      return never;
    }
  }
}

export const rfpDecider: Decider<RfpCommand, RfpEvent, RfpState> = {
  initialState: initialRfpState,
  evolve: evolveRfp,
  decide: (command, state, meta) => decideRfp(command, state, meta),
};
