import { screen, within } from '@testing-library/react';
import { baRow, fakeDataProvider, renderConsole, task } from '../testing/fakes';


/** A BA that has registered and filled nothing in yet: no company name, no PAN, no city. */
const empty = baRow({
  id: '6f1c2d3e-4b5a-4c6d-8e7f-901234567890',
  status: 'pending',
  stage: null,
  companyName: null,
  panNumber: null,
  cityName: null,
  companyCode: '2000',
  registeredEmail: 'new.ba@transport.test',
  registeredMobile: '9123456780',
  details: null,
});

describe('A BA that has filled nothing in yet', () => {
  it('is listed by its registered e-mail id and mobile number, with its company code', async () => {
    renderConsole('/business-associates', {
      dataProvider: fakeDataProvider({ records: [empty, baRow({ id: 'ba-2' })] }),
      roles: ['MLL Procurement'],
    });
    // The loading skeleton is a table too, replaced once the rows arrive: find a row's text first.
    const table = (await screen.findByText('new.ba@transport.test')).closest('table') as HTMLElement;
    const row = (within(table).getByText('new.ba@transport.test')).closest('tr') as HTMLElement;
    expect(within(row).getByText('9123456780')).toBeInTheDocument();
    expect(within(row).getByText('2000')).toBeInTheDocument();
    expect(within(row).queryByText(empty.id)).not.toBeInTheDocument();
    // The named BA keeps its name.
    expect(within(table).getByText('Sharma Roadways Pvt Ltd')).toBeInTheDocument();
  });

  it('has its registered e-mail id and mobile number as the title of its page', async () => {
    renderConsole(`/business-associates/${empty.id}/show`, {
      dataProvider: fakeDataProvider({ records: [empty] }),
      roles: ['MLL Procurement'],
    });
    expect(await screen.findByText('new.ba@transport.test · 9123456780')).toBeInTheDocument();
    expect(screen.queryByText(`Business associate ${empty.id}`)).not.toBeInTheDocument();
  });

  it('is named the same way in My Pending Task', async () => {
    const dataProvider = fakeDataProvider({
      tasks: [
        task({
          id: 't1',
          baId: empty.id,
          companyName: null,
          registeredEmail: 'new.ba@transport.test',
          registeredMobile: '9123456780',
        }),
      ],
    });
    renderConsole('/tasks', { dataProvider, roles: ['MLL Procurement'] });
    // The loading skeleton is a table too, replaced once the rows arrive: find a row's text first.
    const table = (await screen.findByText('new.ba@transport.test')).closest('table') as HTMLElement;
    const row = (within(table).getByText('new.ba@transport.test')).closest('tr') as HTMLElement;
    expect(within(row).getByText('9123456780')).toBeInTheDocument();
    expect(within(row).queryByText('NA')).not.toBeInTheDocument();
  });
});
