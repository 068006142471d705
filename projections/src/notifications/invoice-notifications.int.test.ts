import { randomUUID } from 'node:crypto';
import { handleCommand } from '../../../domain/src/event-store/handle-command';
import type { EventStore } from '../../../domain/src/event-store/port';
import type { Role } from '../../../domain/src/identity/roles';
import { userDecider, userIdForUsername, userStreamId } from '../../../domain/src/identity/users';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { createInvoiceEvents, testActors } from '../invoices/test-events';
import { rebuildProjections } from '../rebuild';
import { applyDirectly, dumpTables } from '../test-support';
import { notificationsProjection } from './notifications.projection';
import { listNotifications } from './notifications.queries';

let db: TestDatabase;
let store: EventStore;

const uid = (name: string): string => userIdForUsername(`${name}@bill.test`);

async function addUser(name: string, roles: Role[], companyCodes: string[] = ['1000'], baId: string | null = null) {
  const userId = uid(name);
  await handleCommand(
    store,
    userStreamId(userId),
    userDecider,
    { type: 'RegisterUser', userId, username: `${name}@bill.test`, name, roles, companyCodes, baId },
    {
      actor: testActors.system,
      at: new Date().toISOString(),
      companyCode: null,
      correlationId: randomUUID(),
      causationId: null,
      workflowId: null,
      requestId: null,
      commandId: randomUUID(),
    },
  );
}

async function project(): Promise<void> {
  const head = await store.headPosition();
  for (let from = 0; from < head; ) {
    const page = await store.readAll(from, 3);
    if (page.length === 0) break;
    await applyDirectly(db.pool, notificationsProjection, page);
    from = page[page.length - 1]!.globalPosition;
  }
}

const inbox = async (name: string) => (await listNotifications(db.pool, uid(name), { offset: 0, limit: 50 })).rows.map((r) => [r.kind, r.link]);

beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 4 });
  store = createPostgresEventStore(db.pool);
  await addUser('chitra', ['MLL Commercial']);
  await addUser('kiran', ['MLL Commercial']);
  await addUser('anil', ['MLL Accounts']);
  await addUser('other', ['MLL Commercial'], ['2000']);
  await addUser('admin', ['BA Admin'], ['1000'], 'ba-1');
  const inv = createInvoiceEvents(store);
  await inv.submitted('i-1', 'ba-1', { submitToUserId: uid('chitra') });
  await inv.on('i-1', 'InvoiceRejected', { by: testActors.commercial, remarks: 'Wrong HSN', fromStatus: 'S' }, testActors.commercial);
  await inv.submit('i-1', { submitToUserId: uid('chitra') }, true);
  await inv.on('i-1', 'InvoiceSlaBreached', { status: 'S', since: inv.now(), dueAt: inv.now() });
  await inv.on('i-1', 'InvoiceAcknowledged', { by: testActors.commercial }, testActors.commercial);
  await inv.on('i-1', 'InvoiceVerified', { by: testActors.commercial }, testActors.commercial);
  await inv.on('i-1', 'InvoiceSlaBreached', { status: 'V', since: inv.now(), dueAt: inv.now() });
  await inv.on('i-1', 'InvoiceBooked', { erpDocumentNumber: '5100000001' });
  await inv.on('i-1', 'InvoiceReleased', { by: testActors.accounts }, testActors.accounts);
  await inv.memo('m-1', {
    memoNumber: 'MEMO/1000/2026-27/000001',
    baId: 'ba-1',
    companyCode: '1000',
    fromStateId: 27,
    toStateId: 27,
    invoiceIds: ['i-1'],
    totals: { taxableAmount: '1', cgst: '0', sgst: '0', igst: '0', td: '0', totalAmount: '1', netPayable: '1' },
  });
  await project();
});

afterAll(async () => {
  await db?.drop();
});

describe('Bill-Hub notifications fanned out', () => {
  it('tells only the commercial user the invoice was submitted to; the overdue S and the memo reach every commercial user', async () => {
    expect(await inbox('chitra')).toEqual([
      ['memo.submitted', '/memos/m-1/show'],
      ['invoice.overdue', '/invoices/i-1/show'],
      ['invoice.resubmitted', '/invoices/i-1/show'],
      ['invoice.submitted', '/invoices/i-1/show'],
    ]);
    expect(await inbox('kiran')).toEqual([
      ['memo.submitted', '/memos/m-1/show'],
      ['invoice.overdue', '/invoices/i-1/show'],
    ]);
    expect(await inbox('other')).toEqual([]);
  });

  it('tells accounts of the overdue verified invoice, and the BA of rejection, booking and release', async () => {
    expect(await inbox('anil')).toEqual([['invoice.overdue', '/invoices/i-1/show']]);
    expect(await inbox('admin')).toEqual([
      ['invoice.released', '/bill-hub/invoice/i-1'],
      ['invoice.booked', '/bill-hub/invoice/i-1'],
      ['invoice.rejected', '/bill-hub/invoice/i-1'],
    ]);
    const { rows } = await listNotifications(db.pool, uid('admin'), { offset: 0, limit: 50 });
    expect(rows.find((r) => r.kind === 'invoice.rejected')?.body).toBe('Your invoice INV-001 was rejected: Wrong HSN. Please correct it and submit it again.');
  });

  it('rebuilds to the same rows', async () => {
    const tables = ['notifications', 'notification_invoices'];
    const live = await dumpTables(db.pool, tables);
    expect(live.notification_invoices).toHaveLength(1);
    await rebuildProjections({ pool: db.pool, store, projections: [notificationsProjection], pageSize: 2 });
    expect(await dumpTables(db.pool, tables)).toEqual(live);
  });
});
