import type { PoolClient } from 'pg';
import {
  BLOCK_STREAM_PREFIX,
  VENDOR_BLOCK_STREAM_PREFIX,
  type BlockEvent,
  type VendorBlockEvent,
} from '../../../domain/src/block/events';
import type { StoredEvent } from '../../../domain/src/shared/events';
import type { Projection, TableNames } from '../projection';

/**
 * `blocks`: one row per block/unblock request (GET /api/blocks), from the `block-<requestId>` streams.
 * `vendor_blocks`: one row per vendor code the portal ever asked to block, from the `vendor-block-<code>`
 * streams: whether it is blocked now, since when and by which request, and the request open on it. Other read
 * models (vendor_codes, nucleus_vendors, the BA list) join it by vendor_code / ba_id / pan instead of keeping a
 * copy: one writer per table, and a rebuild of either side stays exact.
 */
export const blocksProjection: Projection = {
  name: 'blocks',
  tables: ['blocks', 'vendor_blocks'],
  schema: (t: TableNames) => `
    CREATE TABLE IF NOT EXISTS ${t('blocks')} (
      id text PRIMARY KEY,
      action text NOT NULL,
      ba_id text,
      pan text NOT NULL,
      level text NOT NULL,
      company_code text NOT NULL,
      vendor_code text NOT NULL,
      reason_id text NOT NULL,
      reason text NOT NULL,
      comments text NOT NULL,
      file jsonb,
      end_date text,
      status text NOT NULL,
      requested_by jsonb NOT NULL,
      requested_at timestamptz NOT NULL,
      decided_by jsonb,
      decided_at timestamptz,
      remarks text,
      waiting_for_erp boolean NOT NULL DEFAULT false,
      last_erp_error text,
      erp_message text,
      applied_at timestamptz,
      ended_at timestamptz,
      updated_at timestamptz NOT NULL,
      stream_version integer NOT NULL,
      global_position bigint NOT NULL
    );
    CREATE INDEX IF NOT EXISTS ${t('blocks')}_status_idx ON ${t('blocks')} (status, requested_at, id);
    CREATE INDEX IF NOT EXISTS ${t('blocks')}_ba_idx ON ${t('blocks')} (ba_id, requested_at);
    CREATE INDEX IF NOT EXISTS ${t('blocks')}_pan_idx ON ${t('blocks')} (pan);
    CREATE INDEX IF NOT EXISTS ${t('blocks')}_code_idx ON ${t('blocks')} (company_code, requested_at, id);
    CREATE TABLE IF NOT EXISTS ${t('vendor_blocks')} (
      vendor_code text PRIMARY KEY,
      ba_id text,
      pan text NOT NULL,
      company_code text NOT NULL,
      level text NOT NULL,
      blocked boolean NOT NULL DEFAULT false,
      since timestamptz,
      blocked_by_request text,
      pending_request text,
      updated_at timestamptz NOT NULL,
      stream_version integer NOT NULL
    );
    CREATE INDEX IF NOT EXISTS ${t('vendor_blocks')}_ba_idx ON ${t('vendor_blocks')} (ba_id) WHERE blocked;
    CREATE INDEX IF NOT EXISTS ${t('vendor_blocks')}_pan_idx ON ${t('vendor_blocks')} (pan) WHERE blocked;
  `,
  apply: async (client: PoolClient, events: readonly StoredEvent[], t: TableNames) => {
    for (const stored of events) {
      if (stored.streamId.startsWith(VENDOR_BLOCK_STREAM_PREFIX)) await applyVendor(client, stored, t('vendor_blocks'));
      else if (stored.streamId.startsWith(BLOCK_STREAM_PREFIX)) await applyBlock(client, stored, t('blocks'));
    }
  },
};

async function applyBlock(client: PoolClient, stored: StoredEvent, table: string): Promise<void> {
  const event = { type: stored.type, data: stored.data } as BlockEvent;
  const at = stored.metadata.at;
  const v = Number(stored.version);
  // Guarded on the stream version: a page applied twice changes nothing.
  const update = (set: string, params: unknown[]) =>
    client.query(`UPDATE ${table} SET ${set}, updated_at = $2, stream_version = $3, global_position = $4 WHERE id = $1 AND stream_version < $3`, [
      event.data.requestId,
      at,
      v,
      stored.globalPosition,
      ...params,
    ]);
  switch (event.type) {
    case 'BlockRequested': {
      const d = event.data;
      await client.query(
        `INSERT INTO ${table} (id, action, ba_id, pan, level, company_code, vendor_code, reason_id, reason, comments, file, end_date,
           status, requested_by, requested_at, updated_at, stream_version, global_position)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'pending', $13, $14, $14, $15, $16)
         ON CONFLICT (id) DO NOTHING`,
        [
          d.requestId,
          d.action,
          d.baId,
          d.pan,
          d.scope.level,
          d.scope.companyCode,
          d.scope.vendorCode,
          d.reasonId,
          d.reason,
          d.comments,
          d.file === null ? null : JSON.stringify(d.file),
          d.endDate,
          JSON.stringify(d.requestedBy),
          at,
          v,
          stored.globalPosition,
        ],
      );
      break;
    }
    case 'BlockApproved':
      await update(`status = 'approved', decided_by = $5, decided_at = $2, waiting_for_erp = true`, [JSON.stringify(event.data.by)]);
      break;
    case 'BlockRejected':
      await update(`status = 'rejected', decided_by = $5, decided_at = $2, remarks = $6`, [JSON.stringify(event.data.by), event.data.remarks]);
      break;
    case 'ErpRequestSubmitted':
      await update('waiting_for_erp = true', []);
      break;
    case 'ErpCallFailed':
      await update('waiting_for_erp = true, last_erp_error = $5', [event.data.error]);
      break;
    case 'ErpRequestRefused':
      await update(`status = 'refused', waiting_for_erp = false, erp_message = $5`, [event.data.message]);
      break;
    case 'BlockApplied':
      // The end date's unblock closes a block as 'ended'; a request's own outcome is 'applied'.
      await update(
        `status = CASE WHEN status = 'applied' THEN 'ended' ELSE 'applied' END, waiting_for_erp = false, last_erp_error = NULL,
         erp_message = $5, applied_at = CASE WHEN status = 'applied' THEN applied_at ELSE $2::timestamptz END,
         ended_at = CASE WHEN status = 'applied' THEN $2::timestamptz ELSE ended_at END`,
        [event.data.message],
      );
      break;
    case 'BlockEnded':
      await update(
        event.data.unblock ? 'waiting_for_erp = true' : `status = 'ended', ended_at = $2`,
        [],
      );
      break;
    default:
      break;
  }
}

async function applyVendor(client: PoolClient, stored: StoredEvent, table: string): Promise<void> {
  const event = { type: stored.type, data: stored.data } as VendorBlockEvent;
  const at = stored.metadata.at;
  const v = Number(stored.version);
  switch (event.type) {
    case 'VendorBlockRequestOpened': {
      const d = event.data;
      await client.query(
        `INSERT INTO ${table} (vendor_code, ba_id, pan, company_code, level, blocked, pending_request, updated_at, stream_version)
         VALUES ($1, $2, $3, $4, $5, false, $6, $7, $8)
         ON CONFLICT (vendor_code) DO UPDATE SET pending_request = excluded.pending_request, updated_at = excluded.updated_at,
           stream_version = excluded.stream_version
         WHERE ${table}.stream_version < excluded.stream_version`,
        [d.vendorCode, d.baId, d.pan, d.companyCode, d.level, d.requestId, at, v],
      );
      break;
    }
    case 'VendorBlockRequestClosed': {
      const d = event.data;
      await client.query(
        `UPDATE ${table} SET
           pending_request = CASE WHEN pending_request = $2 THEN NULL ELSE pending_request END,
           blocked = CASE WHEN $3 = 'applied' THEN $4 ELSE blocked END,
           since = CASE WHEN $3 = 'applied' THEN (CASE WHEN $4 THEN $5::timestamptz ELSE NULL END) ELSE since END,
           blocked_by_request = CASE WHEN $3 = 'applied' THEN (CASE WHEN $4 THEN $2 ELSE NULL END) ELSE blocked_by_request END,
           updated_at = $5, stream_version = $6
         WHERE vendor_code = $1 AND stream_version < $6`,
        [d.vendorCode, d.requestId, d.outcome, d.blocked, at, v],
      );
      break;
    }
    default:
      break;
  }
}
