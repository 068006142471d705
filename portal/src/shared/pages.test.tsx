import { screen } from '@testing-library/react';
import { fakeApi } from '../testing/fakeApi';
import { renderPortal } from '../testing/render';


describe('message pages', () => {
  it("/401 says the visitor is unauthorised in the spec's words", async () => {
    renderPortal(fakeApi(), '/401');
    expect(await screen.findByRole('heading', { name: "Oops! You're Unauthorised." })).toBeInTheDocument();
    expect(screen.getByText("You don't have enough rights to view this page.")).toBeInTheDocument();
  });

  it('an unknown route shows the not-found page', async () => {
    renderPortal(fakeApi(), '/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to login' })).toHaveAttribute('href', '/');
  });

  it('/workInProgress is the placeholder page', async () => {
    renderPortal(fakeApi(), '/workInProgress');
    expect(await screen.findByRole('heading', { name: 'Work in progress' })).toBeInTheDocument();
  });
});
