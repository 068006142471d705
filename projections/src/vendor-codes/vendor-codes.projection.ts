import type { PoolClient } from 'pg';
import type { StoredEvent } from '../../../domain/src/shared/events';
import { VENDOR_CODE_EVENT_TYPES, type VendorCodeEvent } from '../../../domain/src/vendor-code/events';
import { evolveVendorCode, initialVendorCodeState, vendorCodeStatus, type VendorCodeState } from '../../../domain/src/vendor-code/state';
import { onboardingEventsByBa } from '../onboarding-events';
import type { Projection, TableNames } from '../projection';

/**
 * `vendor_codes`: one row per BA × company code for every BA verified for that code (created from the
 * onboarding events), moved on by the vendor-code events (the SAP dashboard, its counts, the BA's ERP page).
 * The row keeps the lifecycle's folded state (`state`, the domain's own evolve) and the columns lists filter
 * on. `vendor_code_bas` is the projection's own memory of each BA (first company code, name, PAN, GST rows,
 * codes verified, open company change requests), so a GST row added after verification moves the row's status
 * and an approved change of the company's name or PAN shows on its rows.
 */
/** The later of two ISO times: a row's time never depends on how events were split into pages. */
const later = (a: string, b: string): string => (Date.parse(b) > Date.parse(a) ? b : a);

const KNOWN_VC: ReadonlySet<string> = new Set(VENDOR_CODE_EVENT_TYPES);

/** Vendor-code streams only (`vendor-code-workbook-…` streams share the prefix and some event names). */
export const isVendorCodeEvent = (e: StoredEvent): boolean => {
  if (!KNOWN_VC.has(e.type) || !e.streamId.startsWith('vendor-code-') || e.streamId.startsWith('vendor-code-workbook-')) return false;
  const d = e.data as { baId?: unknown; companyCode?: unknown } | null;
  return !!d && typeof d.baId === 'string' && typeof d.companyCode === 'string';
};

export type GstRow = { stateId: number; gstNo: string | null };
type BaRow = {
  ba_id: string;
  company_code: string | null;
  company_name: string | null;
  pan_number: string | null;
  gst: Record<string, GstRow>;
  verified_codes: string[];
  /** Open company change requests that name the company's name or PAN (requestId → those fields). */
  company_changes: Record<string, NameAndPan>;
  position: number;
};
type NameAndPan = { companyName?: string; panNumber?: string };
type VcRow = { id: string; ba_id: string; company_code: string; state: VendorCodeState; position: number; updated_at: string; requested_at: string | null };

export const vendorCodesProjection: Projection = {
  name: 'vendor_codes',
  tables: ['vendor_codes', 'vendor_code_bas'],
  schema: (t: TableNames) => `
    CREATE TABLE IF NOT EXISTS ${t('vendor_code_bas')} (
      ba_id text PRIMARY KEY,
      company_code text,
      company_name text,
      pan_number text,
      gst jsonb NOT NULL DEFAULT '{}',
      verified_codes jsonb NOT NULL DEFAULT '[]',
      position bigint NOT NULL DEFAULT 0
    );
    -- Added after issue 9 landed: ADD COLUMN keeps data folders made before it usable.
    ALTER TABLE ${t('vendor_code_bas')} ADD COLUMN IF NOT EXISTS company_changes jsonb NOT NULL DEFAULT '{}';
    CREATE TABLE IF NOT EXISTS ${t('vendor_codes')} (
      id text PRIMARY KEY,
      ba_id text NOT NULL,
      company_code text NOT NULL,
      company_name text,
      pan_number text,
      status text NOT NULL,
      parent_code text,
      state jsonb NOT NULL,
      gst jsonb NOT NULL DEFAULT '{}',
      vendor_category text,
      vendor_category_status text NOT NULL DEFAULT 'none',
      waiting_for_erp boolean NOT NULL DEFAULT false,
      last_erp_error text,
      requested_at timestamptz,
      updated_at timestamptz NOT NULL,
      position bigint NOT NULL DEFAULT 0
    );
    -- Whether a code is blocked is read from vendor_blocks: drop the copy older data folders still have.
    ALTER TABLE ${t('vendor_codes')} DROP COLUMN IF EXISTS blocked;
    CREATE INDEX IF NOT EXISTS ${t('vendor_codes')}_scope_idx ON ${t('vendor_codes')} (company_code, status, updated_at);
    CREATE INDEX IF NOT EXISTS ${t('vendor_codes')}_ba_idx ON ${t('vendor_codes')} (ba_id);
  `,
  apply: async (client: PoolClient, events: readonly StoredEvent[], t: TableNames) => {
    const byBa = onboardingEventsByBa(events);
    const vc = events.filter(isVendorCodeEvent);
    const baIds = new Set<string>([...byBa.keys(), ...vc.map((e) => (e.data as { baId: string }).baId)]);
    if (baIds.size === 0) return;
    const ids = [...baIds];
    const bas = new Map<string, BaRow>();
    const { rows: baRows } = await client.query<BaRow>(
      `SELECT ba_id, company_code, company_name, pan_number, gst, verified_codes, company_changes, position FROM ${t('vendor_code_bas')} WHERE ba_id = ANY($1)`,
      [ids],
    );
    for (const r of baRows) bas.set(r.ba_id, { ...r, position: Number(r.position) });
    const rows = new Map<string, VcRow>();
    const { rows: vcRows } = await client.query<VcRow & { updated_at: Date; requested_at: Date | null }>(
      `SELECT id, ba_id, company_code, state, position, updated_at, requested_at FROM ${t('vendor_codes')} WHERE ba_id = ANY($1)`,
      [ids],
    );
    for (const r of vcRows)
      rows.set(r.id, {
        ...r,
        position: Number(r.position),
        updated_at: new Date(r.updated_at).toISOString(),
        requested_at: r.requested_at ? new Date(r.requested_at).toISOString() : null,
      });
    const dirtyBas = new Set<string>();
    const dirty = new Set<string>();
    const rowsOf = (baId: string) => [...rows.values()].filter((r) => r.ba_id === baId);
    const touch = (baId: string, at: string) => {
      for (const r of rowsOf(baId)) {
        r.updated_at = later(r.updated_at, at);
        dirty.add(r.id);
      }
    };
    const ensureRow = (baId: string, companyCode: string, at: string): VcRow => {
      const id = `${baId}:${companyCode}`;
      let row = rows.get(id);
      if (!row) {
        row = { id, ba_id: baId, company_code: companyCode, state: initialVendorCodeState, position: 0, updated_at: at, requested_at: null };
        rows.set(id, row);
      }
      dirty.add(id);
      return row;
    };

    // Onboarding facts first (per BA, in order), then the vendor-code events in global order: a row depends on
    // both, and the two never depend on each other's order within a page.
    for (const [baId, items] of byBa) {
      for (const { stored, event } of items) {
        let ba = bas.get(baId);
        if (ba && stored.globalPosition <= ba.position) continue;
        if (!ba) {
          if (event.type !== 'BusinessAssociateCreated') continue;
          ba = { ba_id: baId, company_code: null, company_name: null, pan_number: null, gst: {}, verified_codes: [], company_changes: {}, position: 0 };
          bas.set(baId, ba);
        }
        const at = stored.metadata.at;
        switch (event.type) {
          case 'BusinessAssociateCreated':
            ba.company_code = event.data.companyCode;
            break;
          case 'CompanyDetailsSaved':
            ba.company_name = event.data.details.companyName;
            ba.pan_number = event.data.details.panNumber;
            touch(baId, at);
            break;
          case 'GstRegistrationSaved':
            ba.gst = { ...ba.gst, [event.data.gstId]: { stateId: event.data.registration.stateId, gstNo: event.data.registration.gstNo } };
            touch(baId, at);
            break;
          case 'GstRegistrationDeleted': {
            const { [event.data.gstId]: _gone, ...rest } = ba.gst;
            ba.gst = rest;
            touch(baId, at);
            break;
          }
          case 'ChangeRequestRaised': {
            if (event.data.section !== 'company') continue;
            const { companyName, panNumber } = event.data.proposed as NameAndPan;
            if (companyName === undefined && panNumber === undefined) continue;
            const named = { ...(companyName === undefined ? {} : { companyName }), ...(panNumber === undefined ? {} : { panNumber }) };
            ba.company_changes = { ...ba.company_changes, [event.data.requestId]: named };
            break;
          }
          case 'ChangeRequestApproved':
          case 'ChangeRequestRejected': {
            const named = ba.company_changes[event.data.requestId];
            if (!named || (event.type === 'ChangeRequestApproved' && !event.data.final)) continue;
            const { [event.data.requestId]: _closed, ...open } = ba.company_changes;
            ba.company_changes = open;
            // Approved: the profile takes the proposed fields (domain state.ts applyChangeRequest).
            if (event.type === 'ChangeRequestApproved') {
              ba.company_name = named.companyName ?? ba.company_name;
              ba.pan_number = named.panNumber ?? ba.pan_number;
              touch(baId, at);
            }
            break;
          }
          case 'BusinessAssociateVerified': {
            const code = event.data.companyCode ?? ba.company_code;
            if (code && !ba.verified_codes.includes(code)) ba.verified_codes = [...ba.verified_codes, code];
            if (code) ensureRow(baId, code, at);
            break;
          }
          default:
            continue;
        }
        ba.position = stored.globalPosition;
        dirtyBas.add(baId);
      }
    }
    for (const stored of vc) {
      const event = { type: stored.type, data: stored.data } as VendorCodeEvent;
      const at = stored.metadata.at;
      const row = ensureRow(event.data.baId, event.data.companyCode, at);
      if (stored.globalPosition <= row.position) continue;
      row.state = evolveVendorCode(row.state, event, at);
      if (event.type === 'ParentCodeRequested') row.requested_at = at;
      row.position = stored.globalPosition;
      row.updated_at = later(row.updated_at, at);
    }

    if (dirtyBas.size > 0) {
      const list = [...dirtyBas].map((id) => bas.get(id)!);
      await client.query(
        `INSERT INTO ${t('vendor_code_bas')} (ba_id, company_code, company_name, pan_number, gst, verified_codes, company_changes, position)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::jsonb[], $6::jsonb[], $7::jsonb[], $8::bigint[])
           AS x(ba_id, company_code, company_name, pan_number, gst, verified_codes, company_changes, position)
         ON CONFLICT (ba_id) DO UPDATE SET company_code = excluded.company_code, company_name = excluded.company_name,
           pan_number = excluded.pan_number, gst = excluded.gst, verified_codes = excluded.verified_codes,
           company_changes = excluded.company_changes, position = excluded.position`,
        [
          list.map((b) => b.ba_id),
          list.map((b) => b.company_code),
          list.map((b) => b.company_name),
          list.map((b) => b.pan_number),
          list.map((b) => JSON.stringify(b.gst)),
          list.map((b) => JSON.stringify(b.verified_codes)),
          list.map((b) => JSON.stringify(b.company_changes)),
          list.map((b) => b.position),
        ],
      );
    }
    if (dirty.size === 0) return;
    const out = [...dirty].map((id) => {
      const r = rows.get(id)!;
      const ba = bas.get(r.ba_id);
      const gst = ba?.gst ?? {};
      const s = r.state;
      const jobs = Object.values(s.jobs);
      const failing = jobs.find((j) => j.lastError !== null);
      return {
        id: r.id,
        ba_id: r.ba_id,
        company_code: r.company_code,
        company_name: ba?.company_name ?? null,
        pan_number: ba?.pan_number ?? null,
        status: vendorCodeStatus(s, Object.values(gst).map((g) => g.stateId)),
        parent_code: s.parent.parentCode,
        state: JSON.stringify(s),
        gst: JSON.stringify(gst),
        vendor_category: s.vendorCategory.name,
        vendor_category_status: s.vendorCategory.status,
        waiting_for_erp: jobs.length > 0,
        last_erp_error: failing?.lastError ?? (s.lastRefusal ? `The ERP refused the request: ${s.lastRefusal}` : null),
        requested_at: r.requested_at,
        updated_at: r.updated_at,
        position: r.position,
      };
    });
    const col = <K extends keyof (typeof out)[number]>(k: K) => out.map((o) => o[k]);
    await client.query(
      `INSERT INTO ${t('vendor_codes')} (id, ba_id, company_code, company_name, pan_number, status, parent_code, state, gst,
         vendor_category, vendor_category_status, waiting_for_erp, last_erp_error, requested_at, updated_at, position)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::jsonb[],
         $9::jsonb[], $10::text[], $11::text[], $12::boolean[], $13::text[], $14::timestamptz[], $15::timestamptz[], $16::bigint[])
       ON CONFLICT (id) DO UPDATE SET company_name = excluded.company_name, pan_number = excluded.pan_number,
         status = excluded.status, parent_code = excluded.parent_code, state = excluded.state, gst = excluded.gst,
         vendor_category = excluded.vendor_category, vendor_category_status = excluded.vendor_category_status,
         waiting_for_erp = excluded.waiting_for_erp, last_erp_error = excluded.last_erp_error,
         requested_at = excluded.requested_at, updated_at = excluded.updated_at, position = excluded.position`,
      [
        col('id'),
        col('ba_id'),
        col('company_code'),
        col('company_name'),
        col('pan_number'),
        col('status'),
        col('parent_code'),
        col('state'),
        col('gst'),
        col('vendor_category'),
        col('vendor_category_status'),
        col('waiting_for_erp'),
        col('last_erp_error'),
        col('requested_at'),
        col('updated_at'),
        col('position'),
      ],
    );
  },
};
