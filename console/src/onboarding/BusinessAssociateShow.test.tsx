import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { activity, baRow, fakeDataProvider, renderConsole } from '../testing/fakes';
import type { BusinessAssociate } from '../shared/types';

// The whole console renders per test on shared 2-core machines: give slow runs room (no timing is asserted).
jest.setTimeout(120_000);

async function openBaPage(roles: string[], record: Partial<BusinessAssociate>) {
  const dataProvider = fakeDataProvider({ records: [baRow({ id: 'ba-1', ...record })] });
  renderConsole('/business-associates/ba-1/show', { dataProvider, roles });
  // The page has loaded once the details card shows the record.
  await screen.findByRole('heading', { name: 'Company details' });
  return dataProvider;
}

const card = (title: string) =>
  screen.getByRole('heading', { name: title }).closest('.MuiCard-root') as HTMLElement;

const decisionButtons = () => ({
  approve: screen.queryByRole('button', { name: /approve stage/i }),
  reject: screen.queryByRole('button', { name: /^reject$/i }),
});

describe('BA page: who sees Approve and Reject', () => {
  it.each([
    ['MLL Procurement', 1],
    ['MLL Commercial', 2],
    ['MLL Accounts_HEAD', 2],
    ['MLL-ADMIN', 2],
  ] as const)('%s sees both buttons for a BA waiting in stage %i', async (role, stage) => {
    await openBaPage([role], { status: 'inprogress', stage });
    const { approve, reject } = decisionButtons();
    expect(approve).toHaveTextContent(`Approve stage ${stage}`);
    expect(reject).toBeInTheDocument();
  });

  it.each([
    ['MLL Commercial', 1],
    ['MLL Procurement', 2],
    ['MLL Operations', 1],
    ['Auditor', 2],
  ] as const)('%s sees neither button for a BA waiting in stage %i', async (role, stage) => {
    await openBaPage([role], { status: 'inprogress', stage });
    // The page is complete (status card rendered) and still no decision buttons.
    expect(await screen.findByTestId('current-stage')).toHaveTextContent(`Stage ${stage}`);
    const { approve, reject } = decisionButtons();
    expect(approve).not.toBeInTheDocument();
    expect(reject).not.toBeInTheDocument();
  });

  it.each(['pending', 'verified'] as const)('nobody sees them once the BA is %s', async (status) => {
    await openBaPage(['MLL-ADMIN'], { status, stage: null });
    await screen.findByRole('heading', { name: 'Timeline' });
    const { approve, reject } = decisionButtons();
    expect(approve).not.toBeInTheDocument();
    expect(reject).not.toBeInTheDocument();
  });
});

describe('BA page content', () => {
  it('shows details with readable names, the current stage, the timeline and the activity log', async () => {
    await openBaPage(['MLL Procurement'], { status: 'inprogress', stage: 1, overdue: true });
    const details = card('Company details');
    expect(within(details).getByText('Transportation')).toBeInTheDocument();
    expect(within(details).getByText('Maharashtra')).toBeInTheDocument();
    expect(within(details).getByText('Mumbai')).toBeInTheDocument();
    expect(screen.getByTestId('current-stage')).toHaveTextContent('Stage 1');
    expect(screen.getAllByTestId('overdue-marker').length).toBeGreaterThan(0);
    const timeline = card('Timeline');
    expect(within(timeline).getByText('Stage 1 review')).toBeInTheDocument();
    expect(within(timeline).getByText('Awaiting decision')).toBeInTheDocument();
    const log = await screen.findByRole('table', { name: 'Activity log' });
    expect(within(log).getByText('Submitted for verification')).toBeInTheDocument();
    expect(within(log).getByText('BA Admin')).toBeInTheDocument();
  });

  it('labels the changed fields of items in the activity log and names a vertical mapping’s master items, not their ids', async () => {
    const names: Record<string, { id: number; name?: string; vehicleTypeName?: string }[]> = {
      verticals: [
        { id: 1, name: 'Auto' },
        { id: 2, name: 'Pharma' },
      ],
      zones: [{ id: 5, name: 'West' }],
      'vehicle-types': [{ id: 9, vehicleTypeName: '32 ft MXL' }],
    };
    const dataProvider = fakeDataProvider({
      records: [baRow({ id: 'ba-1', status: 'inprogress', stage: 1 })],
      log: [
        activity({
          action: 'Vertical mapping saved',
          eventType: 'VerticalMappingSaved',
          changes: {
            verticalIds: { before: [1], after: [1, 2] },
            zoneIds: { before: [], after: [5] },
            vehicleTypeIds: { before: [9], after: [] },
          },
        }),
        activity({
          id: 3,
          actorName: 'Document expiry',
          role: 'system',
          action: 'Expiry reminder: Insurance expires in 7 days (2026-12-03)',
          eventType: 'DocumentExpiryReminded',
        }),
        activity({
          id: 2,
          action: 'Change request raised (bank account)',
          eventType: 'ChangeRequestRaised',
          changes: { bankBranch: { before: 'Fort', after: 'Bandra Kurla Complex' } },
        }),
      ],
    });
    (dataProvider.getMany as jest.Mock).mockImplementation(async (resource: string, { ids }: { ids: number[] }) => ({
      data: (names[resource] ?? []).filter((r) => ids.includes(r.id)),
    }));
    renderConsole('/business-associates/ba-1/show', { dataProvider, roles: ['MLL Procurement'] });
    const log = await screen.findByRole('table', { name: 'Activity log' });
    const row = within(log).getByText('Vertical mapping saved').closest('tr') as HTMLElement;
    expect(await within(row).findByText((_, el) => el?.tagName === 'LI' && el.textContent === 'Verticals: Auto → Auto, Pharma')).toBeInTheDocument();
    expect(within(row).getByText((_, el) => el?.tagName === 'LI' && el.textContent === 'Zones: none → West')).toBeInTheDocument();
    expect(within(row).getByText((_, el) => el?.tagName === 'LI' && el.textContent === 'Vehicle types: 32 ft MXL → none')).toBeInTheDocument();
    // A timer's entry names its role as people write it.
    const reminder = within(log).getByText(/Expiry reminder/).closest('tr') as HTMLElement;
    expect(within(reminder).getByText('System')).toBeInTheDocument();
    const bank = within(log).getByText('Change request raised (bank account)').closest('tr') as HTMLElement;
    expect(within(bank).getByText((_, el) => el?.tagName === 'LI' && el.textContent === 'Bank branch: Fort → Bandra Kurla Complex')).toBeInTheDocument();
  });

  it('shows a rejected BA its remarks in the timeline', async () => {
    const remarks = 'PAN copy unreadable';
    await openBaPage(['MLL Procurement'], { status: 'rejected', stage: null, remarks });
    const timeline = card('Timeline');
    expect(within(timeline).getByText('Rejected')).toBeInTheDocument();
    expect(within(timeline).getByText(/PAN copy unreadable/)).toBeInTheDocument();
  });

  it('offers the event history with hashes to auditors but not to reviewers', async () => {
    const dataProvider = await openBaPage(['Auditor'], { status: 'inprogress', stage: 2 });
    await userEvent.click(screen.getByRole('tab', { name: 'Event history' }));
    const table = await screen.findByRole('table', { name: 'Event history' });
    expect(within(table).getByText('BusinessAssociateCreated')).toBeInTheDocument();
    expect(within(table).getByText(`${'b'.repeat(12)}…`)).toBeInTheDocument();
    expect(dataProvider.getEventHistory).toHaveBeenCalledWith('ba-1');
  });

  it('hides the event history tab from a reviewer', async () => {
    await openBaPage(['MLL Procurement'], { status: 'inprogress', stage: 1 });
    expect(await screen.findByRole('tab', { name: 'Activity log' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Event history' })).not.toBeInTheDocument();
  });
});

describe('BA page: change of the registered e-mail id and mobile number', () => {
  it.each(['MLL-ADMIN', 'BA Engagement Manager'])('%s sends the BA Admin the link and sees the spec’s message', async (role) => {
    const dataProvider = await openBaPage([role], { status: 'pending', stage: null, adminUserId: 'user-ravi' });
    await userEvent.click(await screen.findByRole('button', { name: 'Change e-mail/mobile' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('ravi@sharma-roadways.test');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send link' }));
    expect(await screen.findByText('Request sent successfully!')).toBeInTheDocument();
    expect((dataProvider as unknown as { startContactChange: jest.Mock }).startContactChange).toHaveBeenCalledWith('user-ravi');
  });

  it.each(['MLL Procurement', 'Auditor'])('%s does not get the action', async (role) => {
    await openBaPage([role], { status: 'pending', stage: null, adminUserId: 'user-ravi' });
    await screen.findByRole('heading', { name: 'Timeline' });
    expect(screen.queryByRole('button', { name: 'Change e-mail/mobile' })).not.toBeInTheDocument();
  });
});
