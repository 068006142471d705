import type { MassUploadKind, MassUploadValues } from './columns';
import type { NucleusVendorEvent, VendorRowKind } from './events';

/** One parent or child row of a vendor as its stream stands. */
export type VendorRowState = {
  rowKey: string;
  row: VendorRowKind;
  kind: MassUploadKind;
  values: MassUploadValues;
  valuesHash: string;
  /**
   * Every upload that recorded the row, oldest first (the last is the one whose values the row holds). Each of them gets its own answer from its ERP step, so an
   * upload accounts for all the rows it wrote even when a later upload records one again before the step ran.
   */
  uploads: string[];
  /** The uploads whose ERP step has recorded an answer for the row (a result event carrying its upload id). */
  answeredFor: string[];
  vendorCode: string | null;
  parentCode: string | null;
  /** The ERP refused it (message) or, sap-verified, does not know it ('not-in-erp'). */
  problem: string | null;
  /** How many times the ERP refused the row: each refusal makes the row's next ask a new request. */
  refusals: number;
};

export type NucleusVendorState = { pan: string | null; rows: Map<string, VendorRowState>; version: number };

export const initialNucleusVendorState = (): NucleusVendorState => ({ pan: null, rows: new Map(), version: -1 });

/** Folds a `nucleus-vendor-<PAN>` stream. A row recorded again with other values keeps its assigned code. */
export function evolveNucleusVendor(state: NucleusVendorState, event: { type: string; data: unknown }): NucleusVendorState {
  const e = event as NucleusVendorEvent;
  const rows = state.rows;
  switch (e.type) {
    case 'NucleusVendorRecorded': {
      const before = rows.get(e.data.rowKey);
      rows.set(e.data.rowKey, {
        rowKey: e.data.rowKey,
        row: e.data.row,
        kind: e.data.kind,
        values: e.data.values,
        valuesHash: e.data.valuesHash,
        uploads: before ? [...before.uploads.filter((u) => u !== e.data.uploadId), e.data.uploadId] : [e.data.uploadId],
        answeredFor: before?.answeredFor ?? [],
        vendorCode: before?.vendorCode ?? null,
        parentCode: before?.parentCode ?? null,
        problem: null,
        refusals: before?.refusals ?? 0,
      });
      return { pan: e.data.pan, rows, version: state.version + 1 };
    }
    case 'NucleusVendorCodeAssigned': {
      const r = rows.get(e.data.rowKey);
      if (r) Object.assign(r, { vendorCode: e.data.vendorCode, parentCode: e.data.parentCode, problem: null, answeredFor: withAnswerFor(r, e.data.uploadId) });
      return { ...state, version: state.version + 1 };
    }
    case 'ErpRequestRefused': {
      const r = rows.get(e.data.rowKey);
      if (r) Object.assign(r, { problem: e.data.message, answeredFor: withAnswerFor(r, e.data.uploadId), refusals: r.refusals + 1 });
      return { ...state, version: state.version + 1 };
    }
    case 'NucleusVendorNotInErp': {
      const r = rows.get(e.data.rowKey);
      if (r) Object.assign(r, { problem: 'not-in-erp', answeredFor: withAnswerFor(r, e.data.uploadId) });
      return { ...state, version: state.version + 1 };
    }
    default:
      return { ...state, version: state.version + 1 };
  }
}

const withAnswerFor = (r: VendorRowState, uploadId: string): string[] => (r.answeredFor.includes(uploadId) ? r.answeredFor : [...r.answeredFor, uploadId]);

export const foldNucleusVendor = (events: readonly { type: string; data: unknown }[]): NucleusVendorState =>
  events.reduce(evolveNucleusVendor, initialNucleusVendorState());

/** Canonical text of a row's values (sorted keys), what `valuesHash` hashes. */
export const canonicalValues = (values: MassUploadValues): string =>
  JSON.stringify(Object.fromEntries(Object.entries(values).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
