import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { handleCommand } from '../../domain/src/event-store/handle-command';
import type { EventStore } from '../../domain/src/event-store/port';
import { baStreamId } from '../../domain/src/onboarding/events';
import type { OnboardingCommand } from '../../domain/src/onboarding/commands';
import { onboardingDecider } from '../../domain/src/onboarding/decide';
import type { CompanyDetailsInput } from '../../domain/src/onboarding/details';
import type { Actor, StoredEvent } from '../../domain/src/shared/events';
import { liveTables, type TableNames } from './projection';

/**
 * Drives real onboarding commands through the decider into a real event store, with a deterministic clock
 * (each command one minute after the previous), for the projection tests. Test-only.
 */
export const actors = {
  ba: (baId: string): Actor => ({ userId: `ba-user-${baId}`, role: 'BA Admin', name: `Admin of ${baId}` }),
  procurement: { userId: 'u-procurement', role: 'MLL Procurement', name: 'Priya Procurement' } as Actor,
  admin: { userId: 'u-admin', role: 'MLL-ADMIN', name: 'Arun Admin' } as Actor,
  commercial: { userId: 'u-commercial', role: 'MLL Commercial', name: 'Chitra Commercial' } as Actor,
  system: { userId: 'system', role: 'system' } as Actor,
};

export const validDetails = (overrides: Partial<CompanyDetailsInput> = {}): CompanyDetailsInput => ({
  companyName: 'Acme Logistics',
  panNumber: 'ABCDE1234F',
  contactPersonName: 'Ravi Kumar',
  serviceId: 1,
  stateId: 27,
  cityId: 2701,
  addressLine1: '12 Dock Road',
  pinCode: '400001',
  contactPersonMobileNumber: '9876543210',
  ...overrides,
});

export type Onboarding = ReturnType<typeof createOnboardingDriver>;

export function createOnboardingDriver(store: EventStore, options: { start?: string } = {}) {
  let clock = new Date(options.start ?? '2026-01-05T09:00:00.000Z').getTime();
  const companies = new Map<string, string>();

  async function send(baId: string, actor: Actor, command: OnboardingCommand): Promise<number> {
    clock += 60_000;
    const result = await handleCommand(store, baStreamId(baId), onboardingDecider, command, {
      actor,
      at: new Date(clock).toISOString(),
      companyCode: companies.get(baId) ?? null,
      correlationId: randomUUID(),
      causationId: null,
      workflowId: null,
      requestId: null,
      commandId: randomUUID(),
    });
    return result.lastGlobalPosition;
  }

  return {
    now: () => new Date(clock).toISOString(),
    create: (baId: string, companyCode = '1000') => {
      companies.set(baId, companyCode);
      return send(baId, actors.system, {
        type: 'CreateBusinessAssociate',
        baId,
        companyCode,
        adminUserId: actors.ba(baId).userId,
        mobileNo: '9876543210',
        email: `${baId}@demo.test`,
      });
    },
    save: (baId: string, details: Partial<CompanyDetailsInput> = {}) =>
      send(baId, actors.ba(baId), { type: 'SaveCompanyDetails', details: validDetails(details) }),
    submit: (baId: string) => send(baId, actors.ba(baId), { type: 'SubmitOnboarding' }),
    approve: (baId: string, stage: number, actor: Actor, remarks?: string) =>
      send(baId, actor, { type: 'ApproveReviewStage', stage, remarks: remarks ?? null }),
    reject: (baId: string, stage: number, actor: Actor, remarks: string) =>
      send(baId, actor, { type: 'RejectReviewStage', stage, remarks }),
    overdue: (baId: string, submission: number, stage: 1 | 2, dueAt: string) =>
      send(baId, actors.system, { type: 'MarkReviewOverdue', submission, stage, dueAt }),
  };
}

/** Every row of each table, ordered by its primary key columns: for row-for-row comparisons. */
export async function dumpTables(pool: Pool, tables: readonly string[]): Promise<Record<string, unknown[]>> {
  const dump: Record<string, unknown[]> = {};
  for (const table of tables) {
    const { rows: keys } = await pool.query<{ attname: string }>(
      `SELECT a.attname FROM pg_index i
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
       WHERE i.indrelid = $1::regclass AND i.indisprimary ORDER BY array_position(i.indkey::int2[], a.attnum)`,
      [table],
    );
    const order = keys.map((k) => `"${k.attname}"`).join(', ') || '1';
    const { rows } = await pool.query(`SELECT to_jsonb(x) AS row FROM ${table} x ORDER BY ${order}`);
    dump[table] = rows.map((r: { row: unknown }) => r.row);
  }
  return dump;
}

/** Calls a projection's apply on the live tables in one transaction, as the runner would (minus checkpoint). */
export async function applyDirectly(
  pool: Pool,
  projection: { apply: (client: PoolClient, events: readonly StoredEvent[], t: TableNames) => Promise<void> },
  events: readonly StoredEvent[],
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await projection.apply(client, events, liveTables);
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK');
    throw e;
  } finally {
    client.release();
  }
}

/** An event no projection knows, as another capability might append it. */
export const foreignEvent = (globalPosition: number): StoredEvent => ({
  eventId: randomUUID(),
  type: 'SomethingNobodyKnows',
  data: { baId: 'x', weird: true },
  metadata: {
    actor: actors.system,
    companyCode: '1000',
    correlationId: randomUUID(),
    causationId: null,
    workflowId: null,
    requestId: null,
    at: '2026-01-01T00:00:00.000Z',
  },
  streamId: 'other-1',
  version: 0,
  globalPosition,
  recordedAt: '2026-01-01T00:00:00.000Z',
  prevHash: '',
  hash: '',
});
