import { decoyHash, hashPassword, verifyPassword } from './password';

describe('password hashing', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('Demo@2026');
    await expect(verifyPassword('Demo@2026', hash)).resolves.toBe(true);
    await expect(verifyPassword('demo@2026', hash)).resolves.toBe(false);
    await expect(verifyPassword('', hash)).resolves.toBe(false);
  });

  it('salts every hash, so equal passwords do not give equal hashes', async () => {
    const [a, b] = await Promise.all([hashPassword('Demo@2026'), hashPassword('Demo@2026')]);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(a).not.toContain('Demo@2026');
  });

  it('never matches a malformed stored hash', async () => {
    await expect(verifyPassword('x', 'plain-text')).resolves.toBe(false);
    await expect(verifyPassword('x', 'scrypt$16384$8$1$c2FsdA==$dG9vLXNob3J0')).resolves.toBe(false);
  });

  it('has a decoy hash nobody knows the password of', async () => {
    await expect(verifyPassword('Demo@2026', await decoyHash())).resolves.toBe(false);
  });
});
