/**
 * The rows the BA's item reads answer with (GET /api/business-associates/:id/<items>): the API's own shapes
 * (api/src/contract.ts), and what the BA page asks for by path.
 */
import type {
  BankAccountRow,
  ChangeRequestRow,
  CompanyCodeRow,
  ConcessionRow,
  DocumentRow,
  DuplicateRow,
  GstRegistrationRow,
  VerticalMappingRow,
} from '../../../../api/src/contract';

export type {
  AdditionalDocumentRow,
  BankAccountRow,
  ChangeRequestRow,
  CompanyCodeRow,
  ConcessionRow,
  DocumentKind,
  DocumentRow,
  DuplicateRow,
  GstRegistrationRow,
  ReviewStatus,
  VerticalMappingRow,
} from '../../../../api/src/contract';

/** The sub-resources of a BA the page reads, by their path under /api/business-associates/:id. */
export type BaItemRows = {
  'bank-accounts': BankAccountRow[];
  'gst-registrations': GstRegistrationRow[];
  documents: DocumentRow[];
  concessions: ConcessionRow[];
  'vertical-mapping': VerticalMappingRow | null;
  'change-requests': ChangeRequestRow[];
  'company-codes': CompanyCodeRow[];
  duplicates: DuplicateRow[];
};
export type BaItemPath = keyof BaItemRows;

/** An activity-log page request: the API's filters (issue 8) and a 0-based page. */
export type ActivityLogQuery = {
  filter: { action?: string; q?: string; status?: string; from?: string; to?: string };
  page: number;
  perPage: number;
};
