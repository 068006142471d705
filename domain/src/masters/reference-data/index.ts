import type { Actor } from '../../shared/events';
import { MASTER_STREAM_PREFIX } from '../events';
import { ADDITIONAL_DOCUMENT_TYPES } from './additional-document-types';
import { BANK_KEYS } from './bank-keys';
import { BASE_TRANSACTION_TYPES } from './base-transaction-types';
import { BLOCK_REASONS } from './block-reasons';
import { BUSINESS_TYPES } from './business-types';
import { CITIES } from './cities';
import { COLLECTIONS } from './collections';
import { COMPANIES } from './companies';
import { COST_CENTERS } from './cost-centers';
import { DEPARTMENTS } from './departments';
import { DOCUMENT_TYPES } from './document-types';
import { EMAIL_TEMPLATES } from './email-templates';
import { ERP_REJECT_REASONS } from './erp-reject-reasons';
import { EXEMPTION_REASONS } from './exemption-reasons';
import { GL_ACCOUNTS } from './gl-accounts';
import { GST_TYPES } from './gst-types';
import { HSN_CODES } from './hsn-codes';
import { LOCATIONS } from './locations';
import { PAYMENT_TERMS } from './payment-terms';
import { RFP_PROPERTIES } from './rfp-properties';
import { RFP_REQUIRED_FLAGS } from './rfp-required-flags';
import { RFP_TYPES } from './rfp-types';
import { SAP_SETTINGS } from './sap-settings';
import { SECTION_CODES } from './section-codes';
import { SERVICES } from './services';
import { STATES } from './states';
import { TAX_CODES } from './tax-codes';
import { TAX_TYPES } from './tax-types';
import type { ReferenceMaster } from './types';
import { VENDOR_RECON_ACCOUNTS } from './vendor-recon-accounts';
import { VEHICLE_HIRE_TYPES } from './vehicle-hire-types';
import { VEHICLE_TYPES } from './vehicle-types';
import { VENDOR_TYPES } from './vendor-types';
import { VERTICALS } from './verticals';
import { ZONES } from './zones';

export type { ReferenceMaster, ReferenceRow } from './types';

/**
 * The reference data every installation starts with (not demo data: production needs states, cities and tax
 * codes as much as a laptop does), created through the masters' own commands by scripts/reference-data.ts.
 * One entry per master of definitions.ts, in creation order: a master comes after those it refers to.
 * Ids are stable (events and other masters store them); what an administrator edits later is never touched.
 */
export const REFERENCE_DATA: readonly ReferenceMaster[] = [
  { resource: 'companies', rows: COMPANIES },
  { resource: 'states', rows: STATES },
  { resource: 'cities', rows: CITIES },
  { resource: 'locations', rows: LOCATIONS },
  { resource: 'zones', rows: ZONES },
  { resource: 'services', rows: SERVICES },
  { resource: 'vehicle-types', rows: VEHICLE_TYPES },
  { resource: 'payment-terms', rows: PAYMENT_TERMS },
  { resource: 'vendor-recon-accounts', rows: VENDOR_RECON_ACCOUNTS },
  { resource: 'section-codes', rows: SECTION_CODES },
  { resource: 'tax-types', rows: TAX_TYPES },
  { resource: 'tax-codes', rows: TAX_CODES },
  { resource: 'hsn-codes', rows: HSN_CODES },
  { resource: 'bank-keys', rows: BANK_KEYS },
  { resource: 'vendor-types', rows: VENDOR_TYPES },
  { resource: 'cost-centers', rows: COST_CENTERS },
  { resource: 'gl-accounts', rows: GL_ACCOUNTS },
  { resource: 'base-transaction-types', rows: BASE_TRANSACTION_TYPES },
  { resource: 'collections', rows: COLLECTIONS },
  { resource: 'sap-settings', rows: SAP_SETTINGS },
  { resource: 'email-templates', rows: EMAIL_TEMPLATES },
  { resource: 'document-types', rows: DOCUMENT_TYPES },
  { resource: 'additional-document-types', rows: ADDITIONAL_DOCUMENT_TYPES },
  { resource: 'business-types', rows: BUSINESS_TYPES },
  { resource: 'gst-types', rows: GST_TYPES },
  { resource: 'departments', rows: DEPARTMENTS },
  { resource: 'verticals', rows: VERTICALS },
  { resource: 'exemption-reasons', rows: EXEMPTION_REASONS },
  { resource: 'block-reasons', rows: BLOCK_REASONS },
  { resource: 'erp-reject-reasons', rows: ERP_REJECT_REASONS },
  { resource: 'rfp-types', rows: RFP_TYPES },
  { resource: 'vehicle-hire-types', rows: VEHICLE_HIRE_TYPES },
  { resource: 'rfp-properties', rows: RFP_PROPERTIES },
  { resource: 'rfp-required-flags', rows: RFP_REQUIRED_FLAGS },
];

/** Who creates the reference data: a system actor, so nobody mistakes it for a person's edit. */
export const REFERENCE_DATA_ACTOR: Actor = { userId: 'reference-data', role: 'system', name: 'Reference data' };

/** The command creating one reference item: fixed per item, so a second run (or a retry) appends nothing. */
export const referenceCommandId = (resource: string, id: number | string): string => `reference-data:${resource}:${id}`;

/**
 * True for an event the reference-data loader wrote. The demo seed asks it to tell an empty store (only
 * reference data) from one holding real work.
 */
export const isReferenceDataEvent = (e: { streamId: string; metadata: { actor: { userId: string } } }): boolean =>
  e.streamId.startsWith(MASTER_STREAM_PREFIX) && e.metadata.actor.userId === REFERENCE_DATA_ACTOR.userId;
