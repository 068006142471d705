import type { DomainEvent } from '../shared/events';
import type { StoredFile } from '../shared/files';

/**
 * PO annexures (spec 001 §2, §3): policy documents staff publish for BAs holding an MLL PO. One stream per
 * annexure, `annexure-<id>`. Event names are wire contracts: add new ones, never rename.
 */
export type AnnexureUploaded = DomainEvent<'AnnexureUploaded', { id: string; title: string; file: StoredFile }>;
/** A new title and/or file; `previous` is what it replaced, so an auditor reads before and after. */
export type AnnexureReplaced = DomainEvent<
  'AnnexureReplaced',
  { id: string; title: string; file: StoredFile; previous: { title: string; file: StoredFile } }
>;
/** Taken off the list; the stream (and the file it names) stays for the record. */
export type AnnexureWithdrawn = DomainEvent<'AnnexureWithdrawn', { id: string }>;

export type AnnexureEvent = AnnexureUploaded | AnnexureReplaced | AnnexureWithdrawn;

export const ANNEXURE_STREAM_PREFIX = 'annexure-';
export const annexureStreamId = (id: string): string => `${ANNEXURE_STREAM_PREFIX}${id}`;

export type AnnexureCommand =
  | { type: 'UploadAnnexure'; id: string; title: string; file: StoredFile }
  /** Either may be left out: it keeps its value. */
  | { type: 'ReplaceAnnexure'; id: string; title?: string; file?: StoredFile }
  | { type: 'WithdrawAnnexure'; id: string };
