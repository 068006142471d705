import { RFP_STATUS_COLOURS, type RfpStatus, type RfpType, type StatusColour } from '../../../domain/src/rfp/model';

export const RFP_STATUS_LABELS: Record<RfpStatus, string> = {
  draft: 'Draft',
  floated: 'Floated',
  evaluation: 'Evaluation',
  awarded: 'Awarded',
  closed: 'Closed',
};

/** The spec's five colour keys (spec 001 §3) as the theme's chip colours. */
export const STATUS_COLOUR_CHIPS: Record<StatusColour, 'info' | 'primary' | 'error' | 'warning' | 'success'> = {
  submitted: 'info',
  acknowledged: 'primary',
  rejected: 'error',
  inProgress: 'warning',
  released: 'success',
};

export const chipColourOf = (status: RfpStatus) => STATUS_COLOUR_CHIPS[RFP_STATUS_COLOURS[status]];

export const RFP_TYPE_LABELS: Record<RfpType, string> = {
  standard: 'Standard',
  'non-standard': 'Non-standard',
  single: 'Single',
};

export const rfpTypeLabel = (type: RfpType | null | undefined): string => (type ? (RFP_TYPE_LABELS[type] ?? type) : 'NA');
