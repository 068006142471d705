import type { ContactChangeIdentity, ContactChangeLink, OtpResent } from '../../../api/src/contract';
import type { ApiClient } from '../api/client';

/**
 * The contact-change calls (public: the e-mailed link is the credential), on the portal client's plumbing so
 * errors arrive as the same ApiError with the spec's fallbacks.
 */
export type { ContactChangeLink, OtpResent };
export type LinkRef = { baId: string; token: string };
/** spec 000 §3 "BA identity for contact edit". */
export type ContactIdentity = ContactChangeIdentity;
export type ContactCodes = { smsOtp: string; emailOtp: string; newPassword: string; confirmPassword: string };

export function contactChangeApi(client: ApiClient) {
  const post = <T>(path: string, body: object) => client.publicCall<T>(`/api/contact-changes/${path}`, { method: 'POST', body });
  return {
    link: ({ baId, token }: LinkRef): Promise<ContactChangeLink> =>
      client.publicCall<ContactChangeLink>(
        `/api/contact-changes/by-token/${encodeURIComponent(baId)}/${encodeURIComponent(token)}`,
      ),
    verifyIdentity: (link: LinkRef, body: { emailId: string; mobileNo: string }): Promise<ContactIdentity> =>
      post<ContactIdentity>('verify-identity', { ...link, ...body }),
    sendOtp: (link: LinkRef, body: { newEmailId: string; newMobileNo: string }): Promise<OtpResent> =>
      post<OtpResent>('send-otp', { ...link, ...body }),
    resendOtp: (link: LinkRef): Promise<OtpResent> => post<OtpResent>('resend-otp', link),
    verifyOtp: (link: LinkRef, body: ContactCodes): Promise<{ message: string }> =>
      post<{ message: string }>('verify-otp', { ...link, ...body }),
  };
}

export type ContactChangeApi = ReturnType<typeof contactChangeApi>;
