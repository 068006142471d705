import type { MassUploadKind, MassUploadValues } from './columns';

/**
 * Events of the mass upload. Each vendor (by PAN) has a stream `nucleus-vendor-<PAN>`; each upload a stream
 * `mass-upload-<uploadId>` (uploadId = uuid v5 of kind + the file's sha256, so the same file is the same upload).
 */
export const NUCLEUS_VENDOR_STREAM_PREFIX = 'nucleus-vendor-';
export const MASS_UPLOAD_STREAM_PREFIX = 'mass-upload-';
export const nucleusVendorStreamId = (pan: string): string => `${NUCLEUS_VENDOR_STREAM_PREFIX}${pan}`;
export const massUploadStreamId = (uploadId: string): string => `${MASS_UPLOAD_STREAM_PREFIX}${uploadId}`;

export type VendorRowKind = 'parent' | 'child';

/** One row of an upload recorded on the vendor's stream: what the row says, as validated. */
export type NucleusVendorRecorded = {
  type: 'NucleusVendorRecorded';
  data: {
    pan: string;
    kind: MassUploadKind;
    row: VendorRowKind;
    /** parent: `<PAN>|<companyCode>`; child: `<PAN>|<companyCode>|<region>` (rules.ts parentKey/childKey). */
    rowKey: string;
    /** sha256 of the canonical values: an identical row later writes nothing. */
    valuesHash: string;
    values: MassUploadValues;
    uploadId: string;
  };
};

/** The ERP holds (nucleus: created; sap-verified: found) the vendor code of one parent or child row. */
export type NucleusVendorCodeAssigned = {
  type: 'NucleusVendorCodeAssigned';
  data: {
    pan: string;
    rowKey: string;
    row: VendorRowKind;
    companyCode: string;
    stateCode: string | null;
    vendorCode: string;
    parentCode: string | null;
    uploadId: string;
    erpRequestId: string | null;
  };
};

/** The ERP refused to create the row's vendor (a business reason; retrying cannot help). */
export type NucleusErpRequestRefused = {
  type: 'ErpRequestRefused';
  data: {
    pan: string;
    rowKey: string;
    row: VendorRowKind;
    operation: 'create-parent' | 'create-child';
    requestKey: string;
    message: string;
    uploadId: string;
  };
};

/** SAP-verified: the ERP has no vendor for this row's PAN (and company code / state). */
export type NucleusVendorNotInErp = {
  type: 'NucleusVendorNotInErp';
  data: { pan: string; rowKey: string; row: VendorRowKind; companyCode: string; stateCode: string | null; uploadId: string };
};

export type NucleusVendorEvent = NucleusVendorRecorded | NucleusVendorCodeAssigned | NucleusErpRequestRefused | NucleusVendorNotInErp;

/** On `mass-upload-<uploadId>`: the PANs of one batch of rows the upload recorded (written or unchanged). */
export type MassUploadBatchRecorded = {
  type: 'MassUploadBatchRecorded';
  data: { uploadId: string; batch: number; pans: string[]; created: number; unchanged: number };
};

/** On `mass-upload-<uploadId>`: the whole upload is recorded (the last event the API writes). */
export type MassUploadRecorded = {
  type: 'MassUploadRecorded';
  data: {
    uploadId: string;
    kind: MassUploadKind;
    fileName: string;
    sha256: string;
    parents: number;
    children: number;
    rows: number;
    created: number;
    unchanged: number;
    batches: number;
  };
};

/** On `mass-upload-<uploadId>`: the ERP step is over for every row (the workflow's last event). */
export type MassUploadErpCompleted = {
  type: 'MassUploadErpCompleted';
  data: { uploadId: string; assigned: number; refused: number; notInErp: number };
};

export type MassUploadEvent = MassUploadBatchRecorded | MassUploadRecorded | MassUploadErpCompleted;

/** Idempotency key of the ERP create request of a row (contract: nucleus-<PAN>-<companyCode>[-<stateCode>]). */
export const nucleusRequestKey = (pan: string, companyCode: string, stateCode: string | null): string =>
  `nucleus-${pan}-${companyCode}${stateCode ? `-${stateCode}` : ''}`;
