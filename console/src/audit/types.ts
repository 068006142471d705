/**
 * The audit answers as the API gives them (api/src/contract.ts). ChainVerification is POST /api/audit/verify:
 * the same verification as `npm run audit:verify`, the signed anchors included; `broken` names the first
 * position of the history that fails, `anchorProblem` a fault of the anchor file itself.
 */
export type { AuditActivityEntry, BaAsOf, ChainVerification } from '../../../api/src/contract';

export type AuditExportFormat = 'xlsx' | 'json';
