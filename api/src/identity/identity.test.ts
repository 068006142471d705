import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { UserRecord } from '../../../projections/src/identity/users.queries';
import type { Db } from '../../../projections/src/sql';
import { createCaptcha, loadOrCreateCaptchaKey } from './captcha';
import { maskEmail, maskMobile } from './login';
import { validateNewPassword } from './passwords';
import { DEFAULT_PASSWORD_MAX_AGE_MS, homeOf, isPasswordExpired, passwordStateOf } from './sessions';

/** The pure parts of sign-in, sessions and passwords; the HTTP flows are in identity.int.test.ts. */
const DAY = 86_400_000;

const user = (over: Partial<UserRecord> = {}): UserRecord => ({
  id: 'u-1',
  username: 'someone@example.test',
  name: 'Someone',
  credentialId: null,
  credentialHistory: [],
  passwordChangedAt: null,
  mustChangePassword: false,
  mobileNo: null,
  department: null,
  kind: 'staff',
  status: 'active',
  roles: ['MLL Procurement'],
  applications: [{ appId: 'onboard', roleName: 'MLL Procurement' }],
  companyCodes: ['1000'],
  baId: null,
  billHubStateId: null,
  createdAt: new Date().toISOString(),
  version: 1,
  ...over,
});

describe('post-login routing (Me.home)', () => {
  const base = { firstLogin: false, passwordExpired: false, application: 'portal' as const, applications: [], baStatus: null };

  it('sends a first login or an expired password to change it, before anything else', () => {
    expect(homeOf({ ...base, application: 'console', firstLogin: true })).toBe('/change-password');
    expect(homeOf({ ...base, baStatus: 'verified', passwordExpired: true })).toBe('/change-password');
  });

  it('sends staff to the console, Bill-Hub-only users to the Bill-Hub, verified BAs home, other BAs to their status', () => {
    expect(homeOf({ ...base, application: 'console' })).toBe('/console');
    expect(homeOf({ ...base, applications: [{ appId: 'BillHub', roleName: 'BA User' }], baStatus: 'verified' })).toBe('/bill-hub');
    expect(homeOf({ ...base, applications: [{ appId: 'onboard', roleName: 'BA Admin' }], baStatus: 'verified' })).toBe('/home');
    for (const baStatus of ['pending', 'inprogress', 'rejected', null] as const) expect(homeOf({ ...base, baStatus })).toBe('/onboard/status');
  });
});

describe('password age', () => {
  const now = Date.parse('2026-06-01T00:00:00Z');

  it('counts from the last change, else from the account’s creation, against 90 days by default', () => {
    expect(DEFAULT_PASSWORD_MAX_AGE_MS).toBe(90 * DAY);
    const at = (days: number) => new Date(now - days * DAY).toISOString();
    expect(isPasswordExpired(user({ passwordChangedAt: at(89) }), undefined, now)).toBe(false);
    expect(isPasswordExpired(user({ passwordChangedAt: at(91) }), undefined, now)).toBe(true);
    expect(isPasswordExpired(user({ passwordChangedAt: null, createdAt: at(91) }), undefined, now)).toBe(true);
    expect(isPasswordExpired(user({ passwordChangedAt: at(2), createdAt: at(400) }), undefined, now)).toBe(false);
    expect(isPasswordExpired(user({ passwordChangedAt: at(2) }), DAY, now)).toBe(true);
  });

  it('requires a change on a first login or an expired password', () => {
    expect(passwordStateOf(user())).toBe('ok');
    expect(passwordStateOf(user({ mustChangePassword: true }))).toBe('change-required');
    expect(passwordStateOf(user({ passwordChangedAt: new Date(Date.now() - 100 * DAY).toISOString() }))).toBe('change-required');
  });
});

describe('where the code went', () => {
  it('shows only the last 4 digits of the mobile and the first letter and domain of the e-mail', () => {
    expect(maskMobile('9876543210')).toBe('******3210');
    expect(maskEmail('ganesh@demo.test')).toBe('g***@demo.test');
    expect(maskEmail('broken')).toBe('***');
  });
});

describe('validateNewPassword', () => {
  it('applies the spec’s pattern and confirmation, with field errors and the spec’s words on top', () => {
    expect(() => validateNewPassword({ newPassword: 'short', confirmPassword: 'short' })).toThrow(
      expect.objectContaining({ code: 'validation', errors: { newPassword: expect.stringMatching(/8-20 characters/) } }),
    );
    expect(() => validateNewPassword({ newPassword: 'Good@pass1', confirmPassword: 'Good@pass2' })).toThrow(
      expect.objectContaining({ message: 'Confirm Password Not Matching', errors: { confirmPassword: 'Confirm Password Not Matching' } }),
    );
    expect(() => validateNewPassword({})).toThrow(expect.objectContaining({ code: 'validation' }));
    expect(validateNewPassword({ newPassword: 'Good@pass1', confirmPassword: 'Good@pass1' })).toBe('Good@pass1');
  });
  // The reuse rule (none of the last five) reads the credentials table: identity.int.test.ts.
});

describe('the captcha', () => {
  /** A stand-in for captcha_spent: a signature is accepted once. */
  const spentTable = (): Db => {
    const spent = new Set<string>();
    return {
      query: (async (_sql: string, params: unknown[]) => {
        const signature = String(params[0]);
        const fresh = !spent.has(signature);
        spent.add(signature);
        return { rowCount: fresh ? 1 : 0, rows: fresh ? [{ signature }] : [] };
      }) as unknown as Db['query'],
    };
  };

  const solve = async (captcha: ReturnType<typeof createCaptcha>) => {
    const challenge = await captcha.challenge();
    const solution = await solveChallenge({ challenge, deriveKey });
    return { challenge, payload: Buffer.from(JSON.stringify({ challenge, solution })).toString('base64') };
  };

  it('accepts a solution of our own challenge once', async () => {
    const captcha = createCaptcha({ hmacKey: 'k'.repeat(32), counterRange: [10, 50] });
    const db = spentTable();
    const { challenge, payload } = await solve(captcha);
    expect(challenge.parameters.algorithm).toBe('SHA-256');
    expect(challenge.parameters.expiresAt).toBeGreaterThan(Date.now() / 1000);
    expect(await captcha.redeem(db, payload)).toBe(true);
    expect(await captcha.redeem(db, payload)).toBe(false);
  });

  it('refuses a challenge signed with another key, a wrong solution, and junk', async () => {
    const ours = createCaptcha({ hmacKey: 'k'.repeat(32), counterRange: [10, 50] });
    const theirs = createCaptcha({ hmacKey: 'x'.repeat(32), counterRange: [10, 50] });
    const db = spentTable();
    expect(await ours.redeem(db, (await solve(theirs)).payload)).toBe(false);

    const { challenge } = await solve(ours);
    const wrong = { challenge, solution: { counter: 1, derivedKey: '00'.repeat(32) } };
    expect(await ours.redeem(db, Buffer.from(JSON.stringify(wrong)).toString('base64'))).toBe(false);
    for (const junk of ['', 'bm90IGpzb24=', null, 42, { challenge: null, solution: null, test: true }])
      expect(await ours.redeem(db, junk)).toBe(false);
  });

  it('keeps a generated key on disk, readable by the owner only, and prefers a configured one', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'captcha-key-'));
    try {
      const first = loadOrCreateCaptchaKey(path.join(dir, 'keys'));
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(loadOrCreateCaptchaKey(path.join(dir, 'keys'))).toBe(first);
      expect(statSync(path.join(dir, 'keys', 'captcha-hmac.key')).mode & 0o777).toBe(0o600);
      expect(loadOrCreateCaptchaKey(path.join(dir, 'keys'), 'c'.repeat(40))).toBe('c'.repeat(40));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
