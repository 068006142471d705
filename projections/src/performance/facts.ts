import { BLOCK_STREAM_PREFIX } from '../../../domain/src/block/events';
import type { StoredEvent } from '../../../domain/src/shared/events';
import { indianMonthOf } from './periods';

/** The monthly counters of `ba_performance` (column names). */
export const COUNTERS = [
  'rfps_invited',
  'rfps_quoted',
  'rfps_won',
  'lanes_awarded',
  'invoices_submitted',
  'invoices_released',
  'invoices_rejected',
  'blocks',
] as const;
export type Counter = (typeof COUNTERS)[number];

/**
 * One thing that happened to a BA, counted at most once: `kind` + `key` is its identity in
 * `ba_performance_facts`, so the first RFP quote per BA, a re-award of the same lane or a replayed page adds
 * nothing twice. `counter` is what it adds to the BA's month; a release also adds its days since submission.
 */
export type Fact = { kind: string; key: string; baId: string; counter: Counter; month: string; at: string; releaseOf?: string };

type Data = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The facts one stored event states (none for events the dashboard does not count). */
export function factsOf(stored: StoredEvent): Fact[] {
  const data = (stored.data ?? {}) as Data;
  const at = stored.metadata.at;
  const month = indianMonthOf(at);
  const fact = (kind: string, key: string, baId: string, counter: Counter, extra: Partial<Fact> = {}): Fact => ({
    kind,
    key,
    baId,
    counter,
    month,
    at,
    ...extra,
  });
  const rfpCode = str(data['rfpCode']);
  switch (stored.type) {
    case 'RfpFloated': {
      // `baIds` are the BAs newly invited by this float: each counts once per RFP, in the month it was invited.
      const baIds = Array.isArray(data['baIds']) ? (data['baIds'] as unknown[]).map(str).filter((b): b is string => b !== null) : [];
      return rfpCode ? baIds.map((baId) => fact('invited', `${rfpCode}:${baId}`, baId, 'rfps_invited')) : [];
    }
    case 'LaneResponsesSubmitted': {
      const baId = str(data['baId']);
      const quotes = (data['quotes'] ?? {}) as Record<string, unknown>;
      // A submission that only withdraws lanes is not a quote.
      const quotesSomething = Object.values(quotes).some((q) => q !== null && q !== undefined);
      return rfpCode && baId && quotesSomething ? [fact('quoted', `${rfpCode}:${baId}`, baId, 'rfps_quoted')] : [];
    }
    case 'RfpAwarded': {
      if (!rfpCode) return [];
      const lanes = (data['lanes'] ?? {}) as Record<string, { baId?: unknown }[] | undefined>;
      const out: Fact[] = [];
      const won = new Set<string>();
      for (const [laneId, shares] of Object.entries(lanes)) {
        for (const share of shares ?? []) {
          const baId = str(share.baId);
          if (!baId) continue;
          out.push(fact('lane', `${rfpCode}:${laneId}:${baId}`, baId, 'lanes_awarded'));
          won.add(baId);
        }
      }
      for (const baId of won) out.push(fact('won', `${rfpCode}:${baId}`, baId, 'rfps_won'));
      return out;
    }
    case 'InvoiceSubmitted':
    case 'InvoiceReleased':
    case 'InvoiceRejected': {
      const invoiceId = str(data['invoiceId']);
      const baId = str(data['baId']);
      if (!invoiceId || !baId) return [];
      // Keyed by invoice: a resubmission after a rejection is not a second invoice, nor a second rejection.
      if (stored.type === 'InvoiceSubmitted') return [fact('submitted', invoiceId, baId, 'invoices_submitted')];
      if (stored.type === 'InvoiceRejected') return [fact('rejected', invoiceId, baId, 'invoices_rejected')];
      return [fact('released', invoiceId, baId, 'invoices_released', { releaseOf: invoiceId })];
    }
    case 'BlockApplied': {
      // A block request's stream records BlockApplied again when its end date unblocks: the key keeps it one block.
      const baId = str(data['baId']);
      const requestId = str(data['requestId']);
      if (!stored.streamId.startsWith(BLOCK_STREAM_PREFIX) || data['action'] !== 'block' || !baId || !requestId) return [];
      return [fact('block', requestId, baId, 'blocks')];
    }
    default:
      return [];
  }
}
