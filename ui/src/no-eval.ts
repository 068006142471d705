import { config } from 'zod';

/**
 * The Content-Security-Policy has no 'unsafe-eval' (api/src/http/security-headers.ts). zod would otherwise
 * probe for eval with `new Function('')` on its first parse: the probe fails harmlessly, but the browser
 * reports it as a policy violation. Imported first by both front ends, before any schema runs.
 */
config({ jitless: true });
