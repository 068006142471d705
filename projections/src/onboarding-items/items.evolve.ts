import type { OnboardingEvent } from '../../../domain/src/onboarding/events';
import type { StoredEvent } from '../../../domain/src/shared/events';

/**
 * How each onboarding event moves the item rows of its BA (the stored shape, snake_case, as written). Mirrors
 * `evolve` in domain/src/onboarding/state.ts, except that nothing is ever dropped: a deleted or replaced item
 * is marked `removed`, so the projection's version guard also covers deletions.
 */
export const ITEM_TABLES = [
  'ba_bank_accounts',
  'ba_gst_registrations',
  'ba_documents',
  'ba_concessions',
  'ba_vertical_mappings',
  'ba_company_applications',
  'ba_change_requests',
] as const;
export type ItemTable = (typeof ITEM_TABLES)[number];

type Row = Record<string, unknown>;
/** A BA's rows per table, keyed as keyOf keys them ("baId\0id", or "baId" for the vertical mapping). */
export type ItemRows = Record<ItemTable, Map<string, Row>>;

const k = (...parts: string[]) => parts.join('\u0000');

const pendingReview = {
  review_status: 'pending',
  review_remarks: null,
  reviewed_by: null,
  reviewed_role: null,
  reviewed_at: null,
};

const reviewOf = (d: { decision: string; remarks: string | null; reviewedBy: string; role: string; at: string }) => ({
  review_status: d.decision,
  review_remarks: d.remarks,
  reviewed_by: d.reviewedBy,
  reviewed_role: d.role,
  reviewed_at: d.at,
});

export function evolveItems(
  rows: ItemRows,
  stored: StoredEvent,
  event: OnboardingEvent,
  put: (table: ItemTable, row: Row) => void,
): void {
  const at = stored.metadata.at;
  const version = stored.version;
  const baId = event.data.baId;
  const stamp = { updated_at: at, version };
  /** The stored row, if this event is newer than it (else the event is already in it: a page applied again). */
  const current = (table: ItemTable, key: string): Row | undefined | 'applied' => {
    const row = rows[table].get(key);
    return row && Number(row.version) >= version ? 'applied' : row;
  };
  /** Changes an existing row (a review, a deletion) unless it is missing or already has this event. */
  const change = (table: ItemTable, id: string, patch: (row: Row) => Row | null) => {
    const row = current(table, k(baId, id));
    if (row === 'applied' || row === undefined) return;
    const next = patch(row);
    if (next) put(table, { ...next, ...stamp });
  };
  /** Writes a saved item: a new row, or the stored one with the new values (created_at kept). */
  const save = (table: ItemTable, key: string, values: Row) => {
    const row = current(table, key);
    if (row === 'applied') return;
    put(table, { created_at: row?.created_at ?? at, ...(row ?? {}), ...values, ...stamp });
  };

  switch (event.type) {
    case 'BusinessAssociateCreated':
      return save('ba_company_applications', k(baId, event.data.companyCode), {
        ba_id: baId,
        company_code: event.data.companyCode,
        is_first: true,
        status: 'pending',
        stage: null,
        submission: 0,
        stage1_approved_by: null,
        remarks: null,
        applied_at: at,
        submitted_at: null,
      });
    case 'CompanyCodeApplied':
      return save('ba_company_applications', k(baId, event.data.companyCode), {
        ba_id: baId,
        company_code: event.data.companyCode,
        is_first: false,
        status: 'pending',
        stage: null,
        submission: 0,
        stage1_approved_by: null,
        remarks: null,
        applied_at: at,
        submitted_at: null,
      });
    case 'OnboardingSubmitted':
    case 'ReviewStageApproved':
    case 'BusinessAssociateVerified':
    case 'OnboardingRejected': {
      // No company code: the first application (every event recorded before issue 8 is one).
      const code =
        event.data.companyCode ??
        [...rows.ba_company_applications.values()].find((r) => r.is_first === true)?.company_code;
      if (typeof code !== 'string') return;
      return change('ba_company_applications', code, (row) => {
        switch (event.type) {
          case 'OnboardingSubmitted':
            return {
              ...row,
              status: 'inprogress',
              stage: 1,
              submission: event.data.submission,
              stage1_approved_by: null,
              remarks: null,
              submitted_at: at,
            };
          case 'ReviewStageApproved':
            return event.data.stage === 1
              ? { ...row, stage: 2, stage1_approved_by: event.data.approvedBy }
              : { ...row, stage: null };
          case 'BusinessAssociateVerified':
            return { ...row, status: 'verified', stage: null };
          case 'OnboardingRejected':
            return { ...row, status: 'rejected', stage: null, remarks: event.data.remarks };
        }
      });
    }

    case 'BankAccountSaved': {
      const a = event.data.account;
      return save('ba_bank_accounts', k(baId, event.data.accountId), {
        ba_id: baId,
        id: event.data.accountId,
        is_primary: event.data.primary,
        account_no: a.accountNo,
        ifsc_code: a.ifscCode,
        micr_no: a.micrNo,
        account_name: a.accountName,
        bank_name: a.bankName,
        bank_branch: a.bankBranch,
        ...pendingReview,
        removed: false,
      });
    }
    case 'BankAccountDeleted':
      return change('ba_bank_accounts', event.data.accountId, (row) => ({ ...row, removed: true }));
    case 'BankAccountReviewed':
      return change('ba_bank_accounts', event.data.accountId, (row) =>
        row.removed ? null : { ...row, ...reviewOf(event.data) },
      );

    case 'GstRegistrationSaved': {
      const g = event.data.registration;
      return save('ba_gst_registrations', k(baId, event.data.gstId), {
        ba_id: baId,
        id: event.data.gstId,
        state_id: g.stateId,
        gst_type: g.gstType,
        gst_no: g.gstNo,
        address_line1: g.addressLine1,
        address_line2: g.addressLine2,
        pin_code: g.pinCode,
        city_id: g.cityId,
        bank_account_id: g.bankAccountId,
        vendor_category: g.vendorCategory,
        removed: false,
      });
    }
    case 'GstRegistrationDeleted':
      return change('ba_gst_registrations', event.data.gstId, (row) => ({ ...row, removed: true }));

    case 'DocumentUploaded': {
      const d = event.data.document;
      const { replaces, docId } = event.data;
      if (replaces) change('ba_documents', replaces, (row) => ({ ...row, removed: true, replaced_by: docId }));
      return save('ba_documents', k(baId, docId), {
        ba_id: baId,
        id: docId,
        kind: d.kind,
        document_type_id: d.documentTypeId,
        document_type_name: d.documentTypeName,
        document_number: d.documentNumber,
        valid_till: d.validTill,
        state_id: d.stateId,
        file: d.file,
        uploaded_by: event.data.uploadedBy,
        uploaded_role: event.data.role,
        uploaded_at: at,
        replaces,
        replaced_by: null,
        removed: false,
        ...pendingReview,
        approved_till: null,
        expired: false,
        reminded_days: [],
      });
    }
    case 'DocumentDeleted':
      return change('ba_documents', event.data.docId, (row) => ({ ...row, removed: true }));
    case 'DocumentReviewed':
      return change('ba_documents', event.data.docId, (row) =>
        row.removed
          ? null
          : {
              ...row,
              ...reviewOf(event.data),
              approved_till: event.data.decision === 'approved' ? event.data.approvedTill : null,
            },
      );
    case 'DocumentExpiryReminded':
      return change('ba_documents', event.data.docId, (row) => ({
        ...row,
        reminded_days: [...((row.reminded_days as number[] | null) ?? []), event.data.daysBefore],
      }));
    case 'DocumentExpired':
      return change('ba_documents', event.data.docId, (row) => ({ ...row, expired: true }));

    case 'ConcessionSaved': {
      const c = event.data.concession;
      return save('ba_concessions', k(baId, event.data.concessionId), {
        ba_id: baId,
        id: event.data.concessionId,
        exemption_number: c.exemptionNumber,
        exemption_rate: c.exemptionRate,
        exemption_from: c.exemptionFrom,
        exemption_to: c.exemptionTo,
        exemption_reason_id: c.exemptionReasonId,
        exemption_threshold: c.exemptionThreshold,
        withholding_tax_type: c.withHoldingTaxType,
        withholding_tax_code: c.withHoldingTaxCode,
        section_code: c.sectionCode,
        file: c.file,
        is_internal_upload: c.isInternalUpload,
        ...pendingReview,
        removed: false,
      });
    }
    case 'ConcessionDeleted':
      return change('ba_concessions', event.data.concessionId, (row) => ({ ...row, removed: true }));
    case 'ConcessionReviewed':
      return change('ba_concessions', event.data.concessionId, (row) =>
        row.removed ? null : { ...row, ...reviewOf(event.data) },
      );

    case 'VerticalMappingSaved': {
      const m = event.data.mapping;
      const row = current('ba_vertical_mappings', baId);
      if (row === 'applied') return;
      return put('ba_vertical_mappings', {
        ba_id: baId,
        vertical_ids: m.verticalIds,
        sub_service_ids: m.subServiceIds,
        vehicle_type_ids: m.vehicleTypeIds,
        zone_ids: m.zoneIds,
        pickup_zone_ids: m.pickupZoneIds,
        delivery_zone_ids: m.deliveryZoneIds,
        ...pendingReview,
        ...stamp,
      });
    }
    case 'VerticalMappingReviewed': {
      const row = current('ba_vertical_mappings', baId);
      if (row === 'applied' || row === undefined) return;
      return put('ba_vertical_mappings', { ...row, ...reviewOf(event.data), ...stamp });
    }

    case 'ChangeRequestRaised':
      return save('ba_change_requests', k(baId, event.data.requestId), {
        ba_id: baId,
        id: event.data.requestId,
        section: event.data.section,
        proposed: event.data.proposed,
        changes: event.data.changes,
        status: 'pending',
        approvals: [],
        remarks: null,
        raised_by: stored.metadata.actor.userId,
        raised_at: at,
        decided_by: null,
        decided_at: null,
      });
    case 'ChangeRequestApproved': {
      const request = current('ba_change_requests', k(baId, event.data.requestId));
      if (request === 'applied' || request === undefined) return;
      const approvals = [
        ...((request.approvals as unknown[] | null) ?? []),
        // The approver's display name rides along for the reviewers' "Approved by" line (the id alone says nothing).
        { by: event.data.approvedBy, role: event.data.role, at: event.data.at, name: stored.metadata.actor.name ?? null },
      ];
      const final = event.data.final;
      put('ba_change_requests', {
        ...request,
        approvals,
        status: final ? 'approved' : 'first-approved',
        decided_by: final ? event.data.approvedBy : null,
        decided_at: final ? event.data.at : null,
        ...stamp,
      });
      // A bank change, once final, becomes the primary account, approved by the request itself (state.ts).
      if (final && request.section === 'bank') approveBankChange(request.proposed as Row, event.data);
      return;
    }
    case 'ChangeRequestRejected':
      return change('ba_change_requests', event.data.requestId, (row) => ({
        ...row,
        status: 'rejected',
        remarks: event.data.remarks,
        decided_by: event.data.rejectedBy,
        decided_at: at,
      }));
    default:
      return;
  }

  function approveBankChange(proposed: Row, by: { approvedBy: string; role: string; at: string }) {
    const primary = [...rows.ba_bank_accounts.values()].find((r) => r.is_primary === true && r.removed !== true);
    const id = typeof primary?.id === 'string' ? primary.id : 'primary';
    save('ba_bank_accounts', k(baId, id), {
      ba_id: baId,
      id,
      is_primary: true,
      account_no: proposed.accountNo ?? null,
      ifsc_code: proposed.ifscCode ?? null,
      micr_no: proposed.micrNo ?? null,
      account_name: proposed.accountName ?? null,
      bank_name: proposed.bankName ?? null,
      bank_branch: proposed.bankBranch ?? null,
      review_status: 'approved',
      review_remarks: null,
      reviewed_by: by.approvedBy,
      reviewed_role: by.role,
      reviewed_at: by.at,
      removed: false,
    });
  }
}
