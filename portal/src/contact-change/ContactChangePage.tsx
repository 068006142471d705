import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { contactEditMessages, contactEditSchema } from '../../../domain/src/contact-change/fields';
import { messages } from '../../../domain/src/validation/fields';
import { useApi } from '../api/ApiContext';
import { isApiError, messageOf } from '../api/client';
import { AuthLayout } from '../identity/AuthLayout';
import { NewPasswordFields, newPasswordErrors, type NewPasswordValues } from '../identity/NewPasswordFields';
import { ResendCode, waitAfterRefusal } from '../identity/ResendCode';
import { paths } from '../identity/routing';
import { useFeedback } from '../shared/feedback';
import { useCountdown } from '../shared/useCountdown';
import { hasErrors, type Errors } from '../shared/validation';
import { contactChangeApi, type ContactChangeApi, type ContactIdentity, type LinkRef } from './api';
import { emptyDigits, isComplete, OtpBoxes } from './OtpBoxes';

/** Spec 000 §2 route. */
export const CONTACT_CHANGE_PATH = '/email-mobile-change/:baId/:token';
export const PAGE_TITLE = 'Edit Email Id & Mobile Number';
export const CONFIRM_TITLE = 'Confirm Email Id & Mobile Number';

type Contact = { newEmailId: string; newMobileNo: string };

/**
 * Spec 000 §4 "Contact change": token check, identity check, editing, confirmation, the OTP page, then
 * success. Each step is the server's to accept; the page only holds what the user typed between steps.
 */
type Step =
  | { kind: 'checking' }
  /** The link no longer works; `message` is a server message worth adding to the spec's text (spec 000 §8). */
  | { kind: 'gone'; message: string | null }
  | { kind: 'identity' }
  | { kind: 'edit'; identity: ContactIdentity; contact: Contact }
  | { kind: 'otp'; identity: ContactIdentity; contact: Contact; resendAfterSeconds: number }
  | { kind: 'done'; message: string };

/** A refusal meaning the link is dead (expired, used, locked): the page then shows only the spec's text. */
const isGone = (e: unknown): boolean => isApiError(e) && e.status === 410 && e.message === contactEditMessages.linkExpired;

export function ContactChangePage() {
  const { baId = '', token = '' } = useParams();
  const client = useApi();
  const api = useMemo(() => contactChangeApi(client), [client]);
  const link = useMemo<LinkRef>(() => ({ baId, token }), [baId, token]);
  const [step, setStep] = useState<Step>({ kind: 'checking' });

  useEffect(() => {
    let live = true;
    api
      .link(link)
      // Whatever step the server is at, a (re)loaded page asks who is there first: it holds nothing yet.
      .then(() => live && setStep({ kind: 'identity' }))
      .catch((e: unknown) => {
        if (!live) return;
        const message = messageOf(e);
        setStep({ kind: 'gone', message: isGone(e) || message === contactEditMessages.linkExpired ? null : message });
      });
    return () => {
      live = false;
    };
  }, [api, link]);

  const gone = () => setStep({ kind: 'gone', message: null });

  return (
    <AuthLayout title={PAGE_TITLE} wide>
      {step.kind === 'checking' && (
        <Typography role="status" color="text.secondary" sx={{ textAlign: 'center' }}>
          Checking your link…
        </Typography>
      )}
      {step.kind === 'gone' && (
        <Stack spacing={2}>
          {step.message && <Alert severity="error">{step.message}</Alert>}
          <Alert severity="error">{contactEditMessages.linkExpired}</Alert>
        </Stack>
      )}
      {step.kind === 'identity' && (
        <IdentityDialog
          api={api}
          link={link}
          onGone={gone}
          onConfirmed={(identity) =>
            setStep({ kind: 'edit', identity, contact: { newEmailId: identity.emailId, newMobileNo: identity.mobileNo ?? '' } })
          }
        />
      )}
      {step.kind === 'edit' && (
        <EditContact
          api={api}
          link={link}
          initial={step.contact}
          onGone={gone}
          onSent={(contact, resendAfterSeconds) => setStep({ kind: 'otp', identity: step.identity, contact, resendAfterSeconds })}
        />
      )}
      {step.kind === 'otp' && (
        <VerifyCodes
          api={api}
          link={link}
          contact={step.contact}
          resendAfterSeconds={step.resendAfterSeconds}
          onGone={gone}
          onBack={() => setStep({ kind: 'edit', identity: step.identity, contact: step.contact })}
          onDone={(message) => setStep({ kind: 'done', message })}
        />
      )}
      {step.kind === 'done' && (
        <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center' }}>
          <Alert severity="success" sx={{ alignSelf: 'stretch' }}>
            {step.message}
          </Alert>
          <Typography variant="body2" color="text.secondary">
            Sign in with your new e-mail id and new password.
          </Typography>
          <Button component={RouterLink} to={paths.login} variant="contained">
            Go to login
          </Button>
        </Stack>
      )}
    </AuthLayout>
  );
}

type StepProps = { api: ContactChangeApi; link: LinkRef; onGone: () => void };

/** Spec 000 §2 "Edit contact page": first a dialog to confirm identity with the registered e-mail and mobile. */
function IdentityDialog({ api, link, onGone, onConfirmed }: StepProps & { onConfirmed: (identity: ContactIdentity) => void }) {
  const { showError, withLoading } = useFeedback();
  const [values, setValues] = useState({ emailId: '', mobileNo: '' });
  const [errors, setErrors] = useState<Errors<'emailId' | 'mobileNo'>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = {
      ...(values.emailId.trim() === '' ? { emailId: messages.required } : {}),
      ...(values.mobileNo.trim() === '' ? { mobileNo: messages.required } : {}),
    };
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    try {
      onConfirmed(await withLoading(() => api.verifyIdentity(link, { emailId: values.emailId.trim(), mobileNo: values.mobileNo.trim() })));
    } catch (e) {
      if (isGone(e)) return onGone();
      if (isApiError(e) && e.status === 400 && e.message === contactEditMessages.identityMismatch) {
        const left = e.attemptsLeft;
        setRefusal(left === undefined ? e.message : `${e.message}. ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`);
      } else showError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  const change = (field: 'emailId' | 'mobileNo', value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  return (
    <Dialog open aria-labelledby="contact-identity-title" fullWidth maxWidth="xs">
      <Box component="form" noValidate onSubmit={onSubmit} aria-label="Confirm your identity">
        <DialogTitle id="contact-identity-title">Confirm your identity</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <DialogContentText>Enter the e-mail id and mobile number registered with your account.</DialogContentText>
            {refusal && (
              <Alert severity="error" role="alert">
                {refusal}
              </Alert>
            )}
            <TextField
              label="Registered Email Id"
              name="emailId"
              required
              autoComplete="email"
              value={values.emailId}
              onChange={(e) => change('emailId', e.target.value)}
              error={Boolean(errors.emailId)}
              helperText={errors.emailId}
            />
            <TextField
              label="Registered Mobile Number"
              name="mobileNo"
              required
              autoComplete="tel-national"
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 10 } }}
              value={values.mobileNo}
              onChange={(e) => change('mobileNo', e.target.value)}
              error={Boolean(errors.mobileNo)}
              helperText={errors.mobileNo}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button type="submit" variant="contained" disabled={busy}>
            Confirm
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/** The spec's field messages ("Please Enter Valid EmailId", "Please Enter Valid Mobile No"). */
function contactErrors(c: Contact): Errors<keyof Contact> {
  const email = contactEditSchema.shape.newEmailId.safeParse(c.newEmailId);
  const mobile = contactEditSchema.shape.newMobileNo.safeParse(c.newMobileNo);
  return {
    ...(email.success ? {} : { newEmailId: contactEditMessages.email }),
    ...(mobile.success ? {} : { newMobileNo: contactEditMessages.mobile }),
  };
}

/** The editable e-mail id and mobile number, then the confirmation dialog; confirming sends the codes. */
function EditContact({
  api,
  link,
  initial,
  onGone,
  onSent,
}: StepProps & { initial: Contact; onSent: (contact: Contact, resendAfterSeconds: number) => void }) {
  const { showError, withLoading } = useFeedback();
  const [values, setValues] = useState<Contact>(initial);
  const [errors, setErrors] = useState<Errors<keyof Contact>>({});
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const trimmed = { newEmailId: values.newEmailId.trim(), newMobileNo: values.newMobileNo.trim() };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = contactErrors(trimmed);
    setErrors(found);
    if (!hasErrors(found)) setConfirming(true);
  };

  const send = async () => {
    if (busy) return;
    setBusy(true);
    try {
      const sent = await withLoading(() => api.sendOtp(link, trimmed));
      setConfirming(false);
      onSent(trimmed, sent.resendAfterSeconds);
    } catch (e) {
      setConfirming(false);
      if (isGone(e)) return onGone();
      if (isApiError(e) && Object.keys(e.fieldErrors).length > 0) setErrors(e.fieldErrors);
      showError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  const change = (field: keyof Contact, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  return (
    <>
      <Box component="form" noValidate onSubmit={onSubmit} aria-label="New e-mail id and mobile number">
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            Enter the new e-mail id and mobile number for your account. A code will be sent to each.
          </Typography>
          <TextField
            label="Email Id"
            name="newEmailId"
            required
            autoComplete="email"
            value={values.newEmailId}
            onChange={(e) => change('newEmailId', e.target.value)}
            error={Boolean(errors.newEmailId)}
            helperText={errors.newEmailId}
          />
          <TextField
            label="Mobile Number"
            name="newMobileNo"
            required
            autoComplete="tel-national"
            slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 10 } }}
            value={values.newMobileNo}
            onChange={(e) => change('newMobileNo', e.target.value)}
            error={Boolean(errors.newMobileNo)}
            helperText={errors.newMobileNo}
          />
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            Submit
          </Button>
        </Stack>
      </Box>
      <Dialog open={confirming} onClose={() => !busy && setConfirming(false)} aria-labelledby="contact-confirm-title">
        <DialogTitle id="contact-confirm-title">{CONFIRM_TITLE}</DialogTitle>
        <DialogContent>
          <DialogContentText component="div">
            <Typography>
              Email Id: <strong>{trimmed.newEmailId}</strong>
            </Typography>
            <Typography>
              Mobile Number: <strong>{trimmed.newMobileNo}</strong>
            </Typography>
          </DialogContentText>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={() => setConfirming(false)} disabled={busy}>
            Cancel
          </Button>
          <Button variant="contained" onClick={() => void send()} disabled={busy}>
            Confirm
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/**
 * Spec 000 §2 "OTP page for contact change": four boxes for the mobile code and four for the e-mail code,
 * each with a show/hide toggle; Resend OTP (with its countdown), Back and Verify, which is enabled only once
 * all eight digits are in. The new password is chosen here too (spec 000 §3 "OTP payload").
 */
function VerifyCodes({
  api,
  link,
  contact,
  resendAfterSeconds,
  onGone,
  onBack,
  onDone,
}: StepProps & {
  contact: Contact;
  resendAfterSeconds: number;
  onBack: () => void;
  onDone: (message: string) => void;
}) {
  const { showError, notify, withLoading } = useFeedback();
  const { secondsLeft, restart } = useCountdown(resendAfterSeconds);
  const [sms, setSms] = useState<string[]>(emptyDigits);
  const [email, setEmail] = useState<string[]>(emptyDigits);
  const [passwords, setPasswords] = useState<NewPasswordValues>({ newPassword: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Errors<keyof NewPasswordValues>>({});
  const [busy, setBusy] = useState(false);
  const complete = isComplete(sms) && isComplete(email);

  const clearCodes = () => {
    setSms(emptyDigits());
    setEmail(emptyDigits());
  };

  const onVerify = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !complete) return;
    const found = newPasswordErrors(passwords);
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    try {
      const done = await withLoading(() =>
        api.verifyOtp(link, { smsOtp: sms.join(''), emailOtp: email.join(''), ...passwords }),
      );
      onDone(done.message || contactEditMessages.success);
    } catch (e) {
      if (isGone(e)) return onGone();
      const fieldErrors = isApiError(e) ? e.fieldErrors : {};
      if (fieldErrors.newPassword || fieldErrors.confirmPassword)
        setErrors({ newPassword: fieldErrors.newPassword, confirmPassword: fieldErrors.confirmPassword });
      else clearCodes();
      showError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  const onResend = async () => {
    if (busy) return;
    setBusy(true);
    try {
      const sent = await withLoading(() => api.resendOtp(link));
      clearCodes();
      restart(sent.resendAfterSeconds);
      notify('OTP sent again');
    } catch (e) {
      if (isGone(e)) return onGone();
      if (isApiError(e) && e.status === 429) restart(waitAfterRefusal(e.retryAfterSeconds, e.message));
      showError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={onVerify} aria-label="Verify OTP">
      <Stack spacing={2.5}>
        <Typography variant="h6" component="h2">
          Verify OTP
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Enter the 4-digit OTP sent to your new mobile number <strong>{contact.newMobileNo}</strong> and the
          4-digit OTP sent to your new e-mail id <strong>{contact.newEmailId}</strong>.
        </Typography>
        <OtpBoxes label="Mobile OTP" digits={sms} onChange={setSms} disabled={busy} />
        <OtpBoxes label="Email OTP" digits={email} onChange={setEmail} disabled={busy} />
        <NewPasswordFields
          values={passwords}
          errors={errors}
          onChange={(field, value) => {
            setPasswords((v) => ({ ...v, [field]: value }));
            setErrors((e) => ({ ...e, [field]: undefined }));
          }}
        />
        <ResendCode secondsLeft={secondsLeft} busy={busy} onResend={() => void onResend()} />
        <Stack direction="row" spacing={2} sx={{ justifyContent: 'flex-end' }}>
          <Button variant="outlined" onClick={onBack} disabled={busy}>
            Back
          </Button>
          <Button type="submit" variant="contained" disabled={busy || !complete}>
            Verify
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
