import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CITIES } from '../../../domain/src/masters/reference-data/cities';
import { messages } from '../../../domain/src/validation/fields';
import { baUser, completeDetails, type FakeApi, type FakeApiOptions } from '../testing/fakeApi';
import { renderPortal } from '../testing/render';
import { onboardingFake } from './itemsFake';

/** The company-details tab sits on the tabbed onboarding page, whose other tabs read the items routes too. */
const fakeApi = (options: FakeApiOptions) => onboardingFake(options).api;

const field = (label: RegExp) => screen.getByLabelText(label);
const fill = (label: RegExp, value: string) => fireEvent.change(field(label), { target: { value } });

async function openForm(api: FakeApi, action = 'registration') {
  renderPortal(api, `/onboard/ba-details/${action}`);
  return screen.findByRole('form', { name: 'Company details' });
}

// The whole portal renders per test on shared 2-core machines: give slow runs room (no timing is asserted).
const user = userEvent.setup({ delay: null });

describe('company details form', () => {
  it("shows the spec's messages for a bad PAN, pincode and mobile, a name with digits and a leading '='", async () => {
    const api = fakeApi({ session: baUser });
    await openForm(api);
    fill(/^Company Name/, '=HYPERLINK("http://x")');
    fill(/^PAN Number/, 'ABCD1234F');
    fill(/^Pincode/, '4110');
    fill(/^Contact Person Mobile Number/, '5123456789');
    fill(/^Contact Person Name/, 'Asha 2');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(field(/^Company Name/)).toHaveAccessibleDescription(messages.leadingCharacter);
    expect(field(/^PAN Number/)).toHaveAccessibleDescription(messages.pan);
    expect(field(/^Pincode/)).toHaveAccessibleDescription(messages.pinCode);
    expect(field(/^Contact Person Mobile Number/)).toHaveAccessibleDescription(messages.mobile);
    expect(field(/^Contact Person Name/)).toHaveAccessibleDescription(messages.name);
    expect(field(/^Company Name/)).toHaveFocus();
    expect(api.sent('POST', '/api/business-associates/ba-1/details')).toHaveLength(0);
  });

  it('checks a field when the user leaves it and clears the message when the user types again', async () => {
    await openForm(fakeApi({ session: baUser }));
    fill(/^PAN Number/, 'abc');
    fireEvent.blur(field(/^PAN Number/));
    expect(field(/^PAN Number/)).toHaveAccessibleDescription(messages.pan);
    fill(/^PAN Number/, 'abcde1234f');
    expect(field(/^PAN Number/)).toHaveValue('ABCDE1234F');
    expect(screen.queryByText(messages.pan)).not.toBeInTheDocument();
  });

  it('saves a draft with empty text as null, the PAN upper-cased and ids as numbers', async () => {
    const api = fakeApi({ session: baUser });
    await openForm(api);
    fill(/^Company Name/, '  Sahyadri Roadways  ');
    fill(/^PAN Number/, 'abcde1234f');
    fill(/^Own Fleet/, '12');
    await user.selectOptions(field(/^State/), 'Maharashtra');
    await user.selectOptions(field(/^City/), await screen.findByRole('option', { name: 'Pune' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Company details saved successfully')).toBeInTheDocument();
    const [saved] = api.sent('POST', '/api/business-associates/ba-1/details');
    expect(saved?.body).toEqual({
      companyName: 'Sahyadri Roadways',
      panNumber: 'ABCDE1234F',
      contactPersonName: null,
      cinNumber: null,
      serviceId: null,
      stateId: 27,
      cityId: 2702,
      addressLine1: null,
      addressLine2: null,
      pinCode: null,
      companyLandline: null,
      contactPersonMobileNumber: null,
      ownFleet: 12,
      attachedFleet: null,
    });
    expect(saved?.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(api.sent('POST', '/api/business-associates/ba-1/submit')).toHaveLength(0);
    // The header follows the saved name.
    expect(screen.getByTestId('header-company-name')).toHaveTextContent('Sahyadri Roadways');
  });

  it('offers only the cities of the chosen state', async () => {
    await openForm(fakeApi({ session: baUser }));
    expect(field(/^City/)).toBeDisabled();
    await user.selectOptions(field(/^State/), 'Karnataka');
    await screen.findByRole('option', { name: 'Bengaluru' });
    const cities = within(field(/^City/)).getAllByRole('option').map((o) => o.textContent);
    // The cities of Karnataka the masters hold, by name; none of another state.
    const karnataka = CITIES.filter((c) => c.stateId === 29).map((c) => c.name);
    expect(cities).toEqual(['Select city', ...[...karnataka].sort((a, b) => a.localeCompare(b))]);
    expect(cities).not.toContain('Mumbai');
  });

  it("shows the server's field errors under the fields", async () => {
    const api = fakeApi({
      session: baUser,
      intercept: (req) =>
        req.path.endsWith('/details')
          ? {
              status: 400,
              body: {
                status: 400,
                message: 'Invalid company details',
                errors: { panNumber: 'This PAN is already registered' },
              },
            }
          : undefined,
    });
    await openForm(api);
    fill(/^PAN Number/, 'ABCDE1234F');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() =>
      expect(field(/^PAN Number/)).toHaveAccessibleDescription('This PAN is already registered'),
    );
    expect(screen.getByText('Invalid company details')).toBeInTheDocument();
  });

  it('is read-only while the details are under verification, even when opened for editing', async () => {
    const api = fakeApi({
      session: baUser,
      ba: { status: 'inprogress', stage: 1, details: completeDetails },
    });
    renderPortal(api, '/onboard/ba-details/edit');

    expect(await screen.findByTestId('view-panNumber')).toHaveTextContent('ABCDE1234F');
    await waitFor(() => expect(screen.getByTestId('view-cityId')).toHaveTextContent('Pune'));
    expect(screen.getByTestId('view-cinNumber')).toHaveTextContent('NA');
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Company Details' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByRole('button', { name: 'Submit for verification' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });
});
