import { GST_TYPE_OPTIONS } from '../definitions';
import type { ReferenceRow } from './types';

export type GstTypeRow = ReferenceRow<{ code: string; name: string }>;

/** Spec 000 §3 "GST type labels", in the spec's order: '' GST Registered, '0' Not Registered, … */
export const GST_TYPES: readonly GstTypeRow[] = GST_TYPE_OPTIONS.map((o, i) => ({ id: i + 1, code: o.id, name: o.name }));
