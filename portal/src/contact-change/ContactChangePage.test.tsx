import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { contactEditMessages } from '../../../domain/src/contact-change/fields';
import { fakeApi, type FakeReply, type RecordedRequest } from '../testing/fakeApi';
import { renderPortal } from '../testing/render';
import { CONFIRM_TITLE } from './ContactChangePage';

// The whole portal renders per test on shared 2-core machines: give slow runs room (no timing is asserted).
const user = userEvent.setup({ delay: null });

const BA = 'ba-1';
const TOKEN = '3f1c2b52-4a57-4f0e-9a55-0c7e1d0f5a11.secret';
const PAGE = `/email-mobile-change/${BA}/${TOKEN}`;
const REGISTERED = { emailId: 'ravi@acme.test', mobileNo: '9876543210', baUserId: 'u-ravi' };
const CODES = { sms: '1234', email: '5678' };
const NEW = { email: 'ravi.kumar@acme.test', mobile: '9123456780', password: 'Fresh@2026' };

const problem = (status: number, message: string, extra: object = {}) => ({ type: 'about:blank', title: 'Error', status, message, ...extra });

/** The contact-change endpoints of the API, in memory; `linkGone` makes the token check fail. */
function contactChangeApi({ linkGone = false } = {}) {
  let failures = 0;
  const intercept = (req: RecordedRequest): FakeReply | undefined => {
    if (!req.path.startsWith('/api/contact-changes/')) return undefined;
    const body = (req.body ?? {}) as Record<string, string>;
    if (linkGone || (req.method === 'POST' && (body['baId'] !== BA || body['token'] !== TOKEN)))
      return { status: 410, body: problem(410, contactEditMessages.linkExpired) };
    switch (`${req.method} ${req.path}`) {
      case `GET /api/contact-changes/by-token/${BA}/${encodeURIComponent(TOKEN)}`:
        return { status: 200, body: { step: 'identity', expiresAt: '2026-03-06T10:00:00.000Z' } };
      case 'POST /api/contact-changes/verify-identity': {
        if (body['emailId']?.toLowerCase() === REGISTERED.emailId && body['mobileNo'] === REGISTERED.mobileNo)
          return { status: 200, body: REGISTERED };
        failures += 1;
        return { status: 400, body: problem(400, contactEditMessages.identityMismatch, { attemptsLeft: 5 - failures }) };
      }
      case 'POST /api/contact-changes/send-otp':
      case 'POST /api/contact-changes/resend-otp':
        return { status: 200, body: { expiresInSeconds: 600, resendAfterSeconds: 30 } };
      case 'POST /api/contact-changes/verify-otp':
        return body['smsOtp'] === CODES.sms && body['emailOtp'] === CODES.email
          ? { status: 200, body: { message: contactEditMessages.success } }
          : { status: 400, body: problem(400, 'Invalid OTP', { errors: { otp: 'Invalid OTP' }, attemptsLeft: 4 }) };
      default:
        return { status: 404, body: problem(404, 'Not found') };
    }
  };
  return fakeApi({ intercept });
}

const box = (group: 'Mobile OTP' | 'Email OTP', i: number) => screen.getByLabelText(`${group} digit ${i}`) as HTMLInputElement;
const verifyButton = () => screen.getByRole('button', { name: 'Verify' });

/** Identity dialog → edit form (prefilled with the registered contact). */
async function confirmIdentity() {
  const dialog = await screen.findByRole('dialog', { name: 'Confirm your identity' });
  await user.type(within(dialog).getByLabelText(/^Registered Email Id/), 'Ravi@Acme.TEST');
  await user.type(within(dialog).getByLabelText(/^Registered Mobile Number/), REGISTERED.mobileNo);
  await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
}

/** Edit form → confirmation dialog → OTP page. */
async function chooseNewContact(email = NEW.email, mobile = NEW.mobile) {
  const emailField = await screen.findByLabelText(/^Email Id/);
  await user.clear(emailField);
  await user.type(emailField, email);
  await user.clear(screen.getByLabelText(/^Mobile Number/));
  await user.type(screen.getByLabelText(/^Mobile Number/), mobile);
  await user.click(screen.getByRole('button', { name: 'Submit' }));
  const confirm = await screen.findByRole('dialog', { name: CONFIRM_TITLE });
  expect(within(confirm).getByText(email)).toBeInTheDocument();
  expect(within(confirm).getByText(mobile)).toBeInTheDocument();
  await user.click(within(confirm).getByRole('button', { name: 'Confirm' }));
  await screen.findByRole('heading', { name: 'Verify OTP' });
}

describe('contact change page (/email-mobile-change/:baId/:token)', () => {
  it('shows only the spec’s text when the link has expired', async () => {
    renderPortal(contactChangeApi({ linkGone: true }), PAGE);
    expect(await screen.findByText(contactEditMessages.linkExpired)).toBeInTheDocument();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('asks for the registered e-mail id and mobile first, and says when they do not match', async () => {
    const api = contactChangeApi();
    renderPortal(api, PAGE);
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your identity' });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(within(dialog).getByLabelText(/^Registered Email Id/)).toHaveAccessibleDescription('This field is required');
    expect(api.sent('POST', '/api/contact-changes/verify-identity')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText(/^Registered Email Id/), REGISTERED.emailId);
    await user.type(within(dialog).getByLabelText(/^Registered Mobile Number/), '9876543211');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText("Your credentials doesn't match our records. 4 attempts left.")).toBeInTheDocument();
    expect(api.sent('POST', '/api/contact-changes/verify-identity')[0]?.body).toEqual({
      baId: BA,
      token: TOKEN,
      emailId: REGISTERED.emailId,
      mobileNo: '9876543211',
    });
    // Still the identity step: nothing to edit yet.
    expect(screen.queryByLabelText(/^Email Id/)).not.toBeInTheDocument();
  });

  it('checks the new e-mail id and mobile with the spec’s messages and confirms them in a dialog', async () => {
    const api = contactChangeApi();
    renderPortal(api, PAGE);
    await confirmIdentity();
    const email = await screen.findByLabelText(/^Email Id/);
    expect(email).toHaveValue(REGISTERED.emailId);
    expect(screen.getByLabelText(/^Mobile Number/)).toHaveValue(REGISTERED.mobileNo);
    await user.clear(email);
    await user.type(email, 'ravi@acme');
    await user.clear(screen.getByLabelText(/^Mobile Number/));
    await user.type(screen.getByLabelText(/^Mobile Number/), '512345');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(email).toHaveAccessibleDescription('Please Enter Valid EmailId');
    expect(screen.getByLabelText(/^Mobile Number/)).toHaveAccessibleDescription('Please Enter Valid Mobile No');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await chooseNewContact();
    expect(api.sent('POST', '/api/contact-changes/send-otp')[0]?.body).toEqual({
      baId: BA,
      token: TOKEN,
      newEmailId: NEW.email,
      newMobileNo: NEW.mobile,
    });
    expect(screen.getByText(NEW.mobile)).toBeInTheDocument();
  });

  it('OTP boxes: typing advances, Backspace goes back, paste fills, show/hide; Verify needs all 8 digits; Back', async () => {
    const api = contactChangeApi();
    renderPortal(api, PAGE);
    await confirmIdentity();
    await chooseNewContact();

    expect(verifyButton()).toBeDisabled();
    // Typing moves from box to box.
    await user.type(box('Mobile OTP', 1), CODES.sms);
    expect([1, 2, 3, 4].map((i) => box('Mobile OTP', i).value)).toEqual(['1', '2', '3', '4']);
    expect(verifyButton()).toBeDisabled();

    // Hidden until shown, per group.
    expect(box('Mobile OTP', 1)).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show Mobile OTP' }));
    expect(box('Mobile OTP', 1)).toHaveAttribute('type', 'text');
    expect(box('Email OTP', 1)).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Hide Mobile OTP' }));
    expect(box('Mobile OTP', 1)).toHaveAttribute('type', 'password');

    // A pasted code fills the boxes.
    await user.click(box('Email OTP', 1));
    await user.paste(CODES.email);
    expect([1, 2, 3, 4].map((i) => box('Email OTP', i).value)).toEqual(['5', '6', '7', '8']);
    expect(verifyButton()).toBeEnabled();

    // Backspace clears the box, then moves back to the one before.
    await user.click(box('Mobile OTP', 4));
    await user.keyboard('{Backspace}');
    expect(box('Mobile OTP', 4)).toHaveValue('');
    expect(verifyButton()).toBeDisabled();
    await user.keyboard('{Backspace}');
    expect(box('Mobile OTP', 3)).toHaveValue('');
    expect(box('Mobile OTP', 3)).toHaveFocus();
    await user.keyboard('34');
    expect(verifyButton()).toBeEnabled();

    // Resend waits for its countdown.
    expect(screen.getByRole('button', { name: 'Resend OTP' })).toBeDisabled();
    expect(screen.getByTestId('resend-countdown')).toHaveTextContent(/in 00:[0-3]\d/);

    // Back: the form again, with what was chosen.
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByLabelText(/^Email Id/)).toHaveValue(NEW.email);
    expect(screen.getByLabelText(/^Mobile Number/)).toHaveValue(NEW.mobile);
    expect(api.sent('POST', '/api/contact-changes/verify-otp')).toHaveLength(0);
  });

  it('verifies the codes with the new password and shows the success with a way to log in', async () => {
    const api = contactChangeApi();
    renderPortal(api, PAGE);
    await confirmIdentity();
    await chooseNewContact();
    await user.type(box('Mobile OTP', 1), CODES.sms);
    await user.click(box('Email OTP', 1));
    await user.paste(CODES.email);

    // The password rule (spec 000 §5) is checked before anything is sent.
    await user.type(screen.getByLabelText(/^New Password/), 'weak');
    await user.click(verifyButton());
    expect(screen.getByLabelText(/^New Password/)).toHaveAccessibleDescription(/Password must be 8-20 characters/);
    expect(api.sent('POST', '/api/contact-changes/verify-otp')).toHaveLength(0);

    await user.clear(screen.getByLabelText(/^New Password/));
    await user.type(screen.getByLabelText(/^New Password/), NEW.password);
    await user.type(screen.getByLabelText(/^Confirm Password/), NEW.password);
    await user.click(verifyButton());
    expect(await screen.findByText(contactEditMessages.success)).toBeInTheDocument();
    expect(api.sent('POST', '/api/contact-changes/verify-otp')[0]?.body).toEqual({
      baId: BA,
      token: TOKEN,
      smsOtp: CODES.sms,
      emailOtp: CODES.email,
      newPassword: NEW.password,
      confirmPassword: NEW.password,
    });
    await user.click(screen.getByRole('link', { name: 'Go to login' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it('a wrong code is reported and the boxes are cleared for another try', async () => {
    const api = contactChangeApi();
    renderPortal(api, PAGE);
    await confirmIdentity();
    await chooseNewContact();
    await user.type(box('Mobile OTP', 1), '9999');
    await user.click(box('Email OTP', 1));
    await user.paste(CODES.email);
    await user.type(screen.getByLabelText(/^New Password/), NEW.password);
    await user.type(screen.getByLabelText(/^Confirm Password/), NEW.password);
    await user.click(verifyButton());
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Invalid OTP')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(box('Mobile OTP', 1)).toHaveValue('');
    expect(verifyButton()).toBeDisabled();
  });
});
