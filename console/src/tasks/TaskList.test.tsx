import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeDataProvider, renderConsole, task } from '../testing/fakes';


describe('My Pending Task', () => {
  it('lists each task with BA name, stage, company code, age, SLA due time and an overdue flag', async () => {
    const dataProvider = fakeDataProvider({
      tasks: [
        task({ id: 't1', baId: 'ba-1', companyName: 'Fresh Freight', ageSeconds: 3 * 3600, overdue: false }),
        task({
          id: 't2',
          baId: 'ba-2',
          companyName: 'Late Logistics',
          stage: 2,
          ageSeconds: 2 * 86_400 + 60,
          overdue: true,
        }),
      ],
    });
    renderConsole('/tasks', { dataProvider, roles: ['MLL-ADMIN'] });
    const table = await screen.findByRole('table');
    const fresh = (await within(table).findByText('Fresh Freight')).closest('tr') as HTMLElement;
    const late = within(table).getByText('Late Logistics').closest('tr') as HTMLElement;

    expect(within(fresh).getByText('Stage 1')).toBeInTheDocument();
    expect(within(fresh).getByText('1000')).toBeInTheDocument();
    expect(within(fresh).getByText('3 h')).toBeInTheDocument();
    // The SLA due time in Indian time, whatever the machine's zone: 10:30 UTC is 16:00 in India.
    expect(within(fresh).getByText('05-Nov-2025 16:00')).toBeInTheDocument();
    expect(within(fresh).queryByTestId('overdue-marker')).not.toBeInTheDocument();

    expect(within(late).getByText('Stage 2')).toBeInTheDocument();
    expect(within(late).getByText('2 d')).toBeInTheDocument();
    expect(within(late).getByTestId('overdue-marker')).toBeInTheDocument();
  });

  it('opens the BA a task is about', async () => {
    const dataProvider = fakeDataProvider({
      tasks: [task({ id: 't1', baId: 'ba-1', companyName: 'Sharma Roadways Pvt Ltd' })],
    });
    renderConsole('/tasks', { dataProvider, roles: ['MLL Procurement'] });
    const table = await screen.findByRole('table');
    await userEvent.click(await within(table).findByText('Sharma Roadways Pvt Ltd'));
    expect(await screen.findByRole('heading', { name: 'Company details' })).toBeInTheDocument();
    expect(dataProvider.getOne).toHaveBeenCalledWith(
      'business-associates',
      expect.objectContaining({ id: 'ba-1' }),
    );
  });
});
