import { Router } from 'express';
import { publicRoute } from '../http/auth';

/**
 * GET /api/help (spec 000 §2 "Help": "User Manual opens a link fetched from the server, plus a support
 * mailbox"). Public: the sign-in page's visitors need the mailbox most. USER_MANUAL_URL and SUPPORT_EMAIL
 * (platform/src/config) set both.
 */
export type HelpInfo = { userManualUrl: string; supportEmail: string };

/** Used only where no configuration is passed (tests of other capabilities build the app without it). */
export const DEFAULT_HELP: HelpInfo = { userManualUrl: '/user-manual.pdf', supportEmail: 'ba-support@mll.example.in' };

export function helpRoutes(help: HelpInfo = DEFAULT_HELP): Router {
  const router = Router();
  router.get('/help', publicRoute(), (_req, res) => {
    res.json({ userManualUrl: help.userManualUrl, supportEmail: help.supportEmail });
  });
  return router;
}
