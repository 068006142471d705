import type { NextFunction, Request, Response } from 'express';

/**
 * The Content-Security-Policy the console and the portal are built to pass (both are checked in Chromium by
 * tests/e2e/security-headers.e2e.test.ts). Scripts only from our own origin; what each relaxation is for:
 * - style-src 'unsafe-inline': MUI's emotion inserts <style> elements at run time, the index pages carry a
 *   small inline <style>, and the ALTCHA widget injects its own. Styles cannot run code.
 * - worker-src blob:: ALTCHA solves its proof of work in a Web Worker built from a Blob of its bundled code.
 *   Only script already running from our origin can create such a URL.
 * - img-src / font-src data:: Vite inlines small assets as data: URLs.
 * - img-src / frame-src blob:: the portal previews a PO annexure (an image, a PDF in a frame) from an object URL
 *   of bytes it fetched with the session's Authorization header, which a frame's own request could not send.
 *   Only script already running from our origin can create such a URL; no other frame is allowed.
 * Everything else falls back to 'self' or is switched off.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  'frame-src blob:',
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Features neither front end uses: a script that got in still cannot ask for them. */
export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=()';

/** One year; no includeSubDomains: other hosts under the operator's domain are not ours to pin to https. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

/**
 * Headers on every response. HSTS only when the public URL is https (`secure`): sent over plain http it would
 * be ignored by browsers, and on localhost it would pin a developer's browser to https for a year.
 */
export function securityHeaders(options: { secure: boolean }) {
  return (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    res.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    // Older browsers that do not know frame-ancestors.
    res.setHeader('X-Frame-Options', 'DENY');
    if (options.secure) res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    next();
  };
}
