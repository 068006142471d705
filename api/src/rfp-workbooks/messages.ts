/**
 * The workbook texts the domain's rfpMessages do not have (sheet-level problems of an uploaded lane sheet or bid),
 * in the same plain style. Cell rules keep the domain's messages (domain/src/rfp/lanes.ts).
 */
const list = (items: readonly string[], max = 10): string =>
  items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} and ${items.length - max} more`;

export const workbookMessages = {
  missingColumns: (labels: readonly string[]) => `The sheet is missing the column${labels.length === 1 ? '' : 's'} ${list(labels)}`,
  unknownColumns: (labels: readonly string[]) => `The sheet has columns that are not in the template: ${list(labels)}`,
  repeatedColumn: (label: string) => `The column ${label} appears more than once`,
  repeatedLane: (laneId: string) => `Lane ${laneId} appears more than once in the sheet`,
  laneChanged: (label: string, laneId: string) => `${label} of lane ${laneId} was changed: a lane's own details cannot be edited`,
  everyLane: (laneIds: readonly string[]) => `Please quote every lane of this RFP. Not quoted: ${list(laneIds)}`,
} as const;
