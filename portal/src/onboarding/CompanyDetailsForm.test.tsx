import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CITIES } from '../../../domain/src/masters/reference-data/cities';
import { messages } from '../../../domain/src/validation/fields';
import { baUser, completeDetails, fakeApi, type FakeApi } from '../testing/fakeApi';
import { renderPortal } from '../testing/render';

const field = (label: RegExp) => screen.getByLabelText(label);
const fill = (label: RegExp, value: string) => fireEvent.change(field(label), { target: { value } });

async function openForm(api: FakeApi, action = 'registration') {
  renderPortal(api, `/onboard/ba-details/${action}`);
  return screen.findByRole('form', { name: 'Company details' });
}

// The whole portal renders per test on shared 2-core machines: give slow runs room (no timing is asserted).
jest.setTimeout(30_000);
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

  it('refuses to submit while mandatory fields are missing, and calls neither save nor submit', async () => {
    const api = fakeApi({ session: baUser });
    await openForm(api);
    fill(/^Company Name/, 'Sahyadri Roadways');
    fill(/^PAN Number/, 'ABC');
    await user.click(screen.getByRole('button', { name: 'Submit for verification' }));

    // Format errors and gaps are reported together.
    expect(field(/^PAN Number/)).toHaveAccessibleDescription(messages.pan);
    const mandatory = [
      /^Contact Person Name/,
      /^Service/,
      /^State/,
      /^City/,
      /^Address Line 1/,
      /^Pincode/,
      /^Contact Person Mobile Number/,
    ];
    for (const label of mandatory) expect(field(label)).toHaveAccessibleDescription(messages.required);
    expect(field(/^Company Name/)).not.toHaveAccessibleDescription(messages.required);
    expect(field(/^CIN Number/)).not.toHaveAccessibleDescription(messages.required);
    expect(api.sent('POST', '/api/business-associates/ba-1/details')).toHaveLength(0);
    expect(api.sent('POST', '/api/business-associates/ba-1/submit')).toHaveLength(0);
  });

  it('submits complete details: saves, then submits, each with its own idempotency key, then shows the status', async () => {
    const api = fakeApi({ session: baUser, ba: { details: completeDetails } });
    await openForm(api);
    await waitFor(() => expect(field(/^City/)).toHaveValue('2702'));
    await user.click(screen.getByRole('button', { name: 'Submit for verification' }));

    expect(await screen.findByText('Your details are under verification')).toBeInTheDocument();
    expect(screen.getByText('Submitted for verification successfully')).toBeInTheDocument();
    const [save] = api.sent('POST', '/api/business-associates/ba-1/details');
    const [submit] = api.sent('POST', '/api/business-associates/ba-1/submit');
    expect(save?.body).toEqual(completeDetails);
    expect(api.requests.indexOf(save!)).toBeLessThan(api.requests.indexOf(submit!));
    expect(save?.headers['Idempotency-Key']).toBeTruthy();
    expect(submit?.headers['Idempotency-Key']).toBeTruthy();
    expect(save?.headers['Idempotency-Key']).not.toBe(submit?.headers['Idempotency-Key']);
    expect(screen.getByTestId('location')).toHaveTextContent('/onboard/status');
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

  it("shows the server's refusal of a submission (422) in the same way", async () => {
    const api = fakeApi({
      session: baUser,
      ba: { details: completeDetails },
      intercept: (req) =>
        req.path.endsWith('/submit')
          ? {
              status: 422,
              body: {
                status: 422,
                message: 'Please fill in all mandatory company details before submitting',
                errors: { addressLine1: messages.required },
              },
            }
          : undefined,
    });
    await openForm(api);
    await waitFor(() => expect(field(/^City/)).toHaveValue('2702'));
    await user.click(screen.getByRole('button', { name: 'Submit for verification' }));

    await waitFor(() => expect(field(/^Address Line 1/)).toHaveAccessibleDescription(messages.required));
    expect(screen.getByTestId('location')).toHaveTextContent('/onboard/ba-details/registration');
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
    expect(screen.queryByRole('button', { name: 'Submit for verification' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });
});
