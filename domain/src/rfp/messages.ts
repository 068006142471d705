import { DISPLAY_TIME_ZONE } from '../shared/format';
import { FILE_KINDS } from '../validation/files';

/**
 * Every RFP text the user reads. The first group is spec 001 §8 verbatim (odd spacing and punctuation
 * included: 'Successfully Saved Lane Response...!!! ' ends with a space); the rest are ours, for rules the spec
 * leaves "not shown", in the spec's plain style.
 */
export const rfpMessages = {
  // Spec 001 §8.
  addNewBa: 'Please Add New BA to float RFP',
  noRecords: 'No Records Available!!',
  laneResponseSaved: 'Successfully Saved Lane Response...!!! ',
  fileUploadSuccessful: 'File upload successful...!!!',
  fileUploaded: 'File uploaded successfully',
  fileDeleted: 'File deleted successfully',
  termsUploaded: 'Terms and Conditions file uploaded successfully',
  inviteSent: 'Invite to BA has been sent successfully',
  invalidExcel: FILE_KINDS.excel.message,
  opportunitySessionTimedOut: 'Session Timed Out. Please login again',

  // Ours.
  notFound: 'RFP not found',
  exists: (rfpCode: string) => `RFP ${rfpCode} already exists`,
  invalid: 'Please correct the highlighted fields',
  notAllowedNow: (status: string) => `This cannot be done while the RFP is ${status}`,
  notStaff: 'You may not change RFPs',
  notDecider: 'Only MLL Procurement or MLL-ADMIN may close bidding, award, close or reopen an RFP',
  notBidder: 'Only a BA may submit lane responses',
  rfpCodeFixed: 'The RFP code cannot be changed',
  stepNotEnabled: (step: number) => `Step ${step} is not available yet. Please complete the earlier steps first`,
  rfpTypeMismatch: 'The RFP type does not match the RFP',
  noLanes: 'Please upload the lanes before floating the RFP',
  sheetEmpty: 'The sheet has no lanes. Please fill in at least one lane',
  tooManyLanes: (max: number) => `A sheet may hold at most ${max} lanes`,
  columnsNotChosen: 'The sheet columns do not match the properties chosen in step 2',
  dueAtPast: 'The due date must be in the future',
  dueDatePassed: 'The due date for this RFP has passed. Responses can no longer be submitted',
  biddingNotOpen: 'Bidding is not open for this RFP',
  staleRound: 'This RFP has been reopened for a new round. Please reload it',
  baBlocked: 'Your vendor code is blocked. You cannot bid on RFPs',
  noQuotes: 'Please quote at least one lane',
  unknownLane: (laneId: string) => `Lane ${laneId} is not part of this RFP`,
  notBaColumn: (key: string) => `${key} is not a BA property`,
  notMllColumn: (key: string) => `${key} is not an MLL property`,
  requiredValue: (label: string) => `${label} is required`,
  numberValue: (label: string) => `${label} must be a number with up to 2 decimals`,
  optionValue: (label: string) => `${label} must be one of the listed values`,
  noAwards: 'Please award at least one lane',
  sharePositive: 'Each share must be more than 0% with up to 2 decimals',
  sharesSum: (laneId: string) => `The shares of lane ${laneId} must add up to exactly 100%`,
  duplicateBaInLane: (laneId: string) => `A BA appears twice in lane ${laneId}`,
  notQuoted: (baId: string, laneId: string) => `BA ${baId} has not quoted lane ${laneId} in this round`,
  baNotInRfp: 'This BA was not invited to this RFP',
  termsPdf: 'Please choose a PDF file for the terms and conditions',
  comments: 'Please enter comments of at most 260 characters that do not start with a special character',
} as const;

/** '26-Nov-2026 21:16:07' in India time: the date part of the RFP template's file name. */
const partsOf = new Intl.DateTimeFormat('en-GB', {
  timeZone: DISPLAY_TIME_ZONE,
  year: 'numeric',
  month: 'numeric',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

export function templateTimestamp(at: string | Date): string {
  const p = Object.fromEntries(partsOf.formatToParts(typeof at === 'string' ? new Date(at) : at).map((x) => [x.type, x.value]));
  return `${p['day']}-${MONTHS[Number(p['month']) - 1]}-${p['year']} ${p['hour']}:${p['minute']}:${p['second']}`;
}

/**
 * A customer name as part of a file name: path separators and characters Windows refuses become '_', so the
 * download cannot escape its folder or fail to save. The colons of the spec's own time format are kept.
 */
const fileNamePart = (text: string): string => text.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').trim();

/** Spec 001 §7 download names. */
export const rfpFileNames = {
  rfpTemplate: (customerName: string, at: string | Date) => `RFP Template_-${fileNamePart(customerName)}-${templateTimestamp(at)}.xlsx`,
  baBidTemplate: (rfpCode: string) => `BABidTemplate1-${rfpCode}.xlsx`,
  baRfpTemplate: (rfpCode: string) => `BARFPPTemplate-${rfpCode}.xlsx`,
  quoteMatrix: (rfpCode: string) => `BA Quote-Matrix format-${rfpCode}.xlsx`,
  templateWithData: (rfpCode: string) => `TemplateWithData-${rfpCode}.xlsx`,
  terms: (rfpCode: string) => `TermsNCondition-${rfpCode}.pdf`,
  rfpTemplateErrors: (rfpCode: string) => `RFPTemplateError-${rfpCode}.xlsx`,
  baTemplateErrors: (rfpCode: string) => `RFPTemplateErrorBA-${rfpCode}.xlsx`,
} as const;
