import { useEffect, useRef } from 'react';
import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import type {} from 'altcha/types/react';

/** The API's ALTCHA challenge: a self-hosted proof of work, no third party sees the user. */
export const CAPTCHA_URL = '/api/auth/captcha';

type StateChange = { state?: string; payload?: string };

/**
 * Shared by the console's and the portal's sign-in. Spec 000 §2/§4: from the third failed sign-in a captcha
 * is required. The ALTCHA web component solves a
 * proof of work in the browser and announces each state on its `statechange` event; once `verified`, the
 * event carries the base64 payload the sign-in sends as `captcha`. Any other state means "no payload".
 *
 * The widget's code loads once, when the field first shows (most sign-ins never need it). It needs Web
 * Crypto's `subtle`, without which it could not solve anything; jsdom has none, so UI tests drive this
 * wrapper by firing `statechange` on the element. ALTCHA v3 names the challenge URL `challenge` (v2 said
 * `challengeurl`).
 */
export const CaptchaField = ({
  onChange,
  errorText,
  centered = false,
}: {
  onChange: (payload: string | null) => void;
  errorText?: string | null | undefined;
  /** The console's login card centres the widget; the portal's form keeps it to the left. */
  centered?: boolean;
}) => {
  const ref = useRef<HTMLElement>(null);

  useEffect(() => {
    if (globalThis.crypto?.subtle && !globalThis.customElements?.get('altcha-widget')) {
      void import('altcha').catch(() => undefined);
    }
  }, []);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const listener = (event: Event) => {
      const detail = (event as CustomEvent<StateChange | undefined>).detail;
      onChange(detail?.state === 'verified' && detail.payload ? detail.payload : null);
    };
    element.addEventListener('statechange', listener);
    return () => element.removeEventListener('statechange', listener);
  }, [onChange]);

  return (
    <Box sx={centered ? { display: 'grid', justifyItems: 'center' } : undefined}>
      <altcha-widget ref={ref} challenge={CAPTCHA_URL} data-testid="captcha" />
      {errorText && <FormHelperText error>{errorText}</FormHelperText>}
    </Box>
  );
};
