import { z } from 'zod';
import { MAX_TEXT_LENGTH, messages, patterns } from '../validation/fields';

/**
 * Spec 000 §5 "Contact edit": the new e-mail id and mobile number, with the page's own messages (they differ
 * from the registration form's), and the identity check. Shared by the API and the portal page.
 */
export const contactEditMessages = {
  email: 'Please Enter Valid EmailId',
  mobile: 'Please Enter Valid Mobile No',
  /** Spec 000 §5: "Identity check: e-mail compared case-insensitively, mobile exactly; otherwise ...". */
  identityMismatch: "Your credentials doesn't match our records",
  /** Spec 000 §4 "Contact change": what the page shows when the token check fails. */
  linkExpired: 'Your token to edit your email/mobile number has been expired. Please contact admin team',
  sameAsRegistered: 'The new e-mail id and mobile number are the same as the registered ones',
  /** Spec 000 §5: "All 8 OTP digits are required". */
  otpRequired: 'Please enter all 4 digits',
  success: 'Email Id & Mobile Number changed successfully',
} as const;

const emailField = z
  .string({ error: contactEditMessages.email })
  .trim()
  .min(1, { error: contactEditMessages.email })
  .max(MAX_TEXT_LENGTH, { error: contactEditMessages.email })
  .refine((v) => !patterns.forbiddenLeading.test(v), { error: contactEditMessages.email })
  .pipe(z.email({ error: contactEditMessages.email }))
  .transform((v) => v.toLowerCase());

const mobileField = z
  .string({ error: contactEditMessages.mobile })
  .trim()
  .regex(patterns.mobile, { error: contactEditMessages.mobile });

/** The edit form: `POST /api/contact-changes/send-otp` and the portal's form. E-mail ids are lower-cased. */
export const contactEditSchema = z.object({ newEmailId: emailField, newMobileNo: mobileField });
export type ContactEdit = z.output<typeof contactEditSchema>;

/** The identity dialog: both fields present (their match is decided by `identityMatches`). */
export const contactIdentitySchema = z.object({
  emailId: z.string({ error: messages.required }).trim().min(1, { error: messages.required }).max(MAX_TEXT_LENGTH),
  mobileNo: z.string({ error: messages.required }).trim().min(1, { error: messages.required }).max(20),
});

/** One 4-digit code per channel (spec 000 §5: "contact-change OTP is 4 digits for mobile and 4 for e-mail"). */
export const contactOtpSchema = z.object({
  smsOtp: z.string({ error: contactEditMessages.otpRequired }).regex(patterns.contactChangeOtp, { error: contactEditMessages.otpRequired }),
  emailOtp: z.string({ error: contactEditMessages.otpRequired }).regex(patterns.contactChangeOtp, { error: contactEditMessages.otpRequired }),
});

/** E-mail compared case-insensitively (and without surrounding spaces), mobile exactly. */
export function identityMatches(
  registered: { email: string; mobile: string | null },
  given: { emailId: string; mobileNo: string },
): boolean {
  return (
    registered.mobile !== null &&
    given.emailId.trim().toLowerCase() === registered.email.trim().toLowerCase() &&
    given.mobileNo.trim() === registered.mobile
  );
}
