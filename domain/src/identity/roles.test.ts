import {
  ALL_ROLES,
  AUDITOR_ROLE,
  BA_ROLES,
  isBaRole,
  isStaffRole,
  mayReviewStage,
  REVIEW_STAGE_ROLES,
  STAFF_ROLES,
  SYSTEM_ROLE,
} from './roles';

describe('role names', () => {
  test('are exactly the spec’s twelve, split into BA and staff roles, plus the read-only auditor', () => {
    expect([...BA_ROLES]).toEqual(['BA Admin', 'BA User']);
    expect([...STAFF_ROLES].sort()).toEqual(
      [
        'BA Engagement Manager',
        'MLL Procurement',
        'MLL-ADMIN',
        'MLL Commercial',
        'IDT-Team',
        'MDM',
        'MLL Accounts',
        'MLL Accounts_HEAD',
        'MLL Operations',
        'MLL Legal',
      ].sort(),
    );
    expect([...ALL_ROLES].sort()).toEqual([...BA_ROLES, ...STAFF_ROLES, 'Auditor'].sort());
    expect(AUDITOR_ROLE).toBe('Auditor');
  });

  test.each([...BA_ROLES])('%s is a BA role and not a staff role', (role) => {
    expect(isBaRole(role)).toBe(true);
    expect(isStaffRole(role)).toBe(false);
  });

  test.each([...STAFF_ROLES])('%s is a staff role and not a BA role', (role) => {
    expect(isStaffRole(role)).toBe(true);
    expect(isBaRole(role)).toBe(false);
  });

  test.each([AUDITOR_ROLE, SYSTEM_ROLE, 'ba admin', 'MLL ADMIN', ''])(
    '%j is neither a BA nor a staff role',
    (role) => {
      expect(isBaRole(role)).toBe(false);
      expect(isStaffRole(role)).toBe(false);
    },
  );
});

describe('who may review which stage', () => {
  test('stage 1: MLL Procurement or MLL-ADMIN; stage 2: MLL Commercial, MLL Accounts_HEAD or MLL-ADMIN', () => {
    expect([...REVIEW_STAGE_ROLES[1]].sort()).toEqual(['MLL Procurement', 'MLL-ADMIN'].sort());
    const stage2 = ['MLL Commercial', 'MLL Accounts_HEAD', 'MLL-ADMIN'];
    expect([...REVIEW_STAGE_ROLES[2]].sort()).toEqual(stage2.sort());
  });

  test.each([
    [1, 'MLL Procurement', true],
    [1, 'MLL-ADMIN', true],
    [1, 'MLL Commercial', false],
    [1, 'MLL Accounts_HEAD', false],
    [2, 'MLL Commercial', true],
    [2, 'MLL Accounts_HEAD', true],
    [2, 'MLL-ADMIN', true],
    [2, 'MLL Procurement', false],
    [2, 'MLL Accounts', false],
  ] as const)('stage %i, role %s → %s', (stage, role, allowed) => {
    expect(mayReviewStage([role], stage)).toBe(allowed);
  });

  test.each([1, 2] as const)('no BA role, auditor or system actor may review stage %i', (stage) => {
    for (const role of [...BA_ROLES, AUDITOR_ROLE, SYSTEM_ROLE]) {
      expect(mayReviewStage([role], stage)).toBe(false);
    }
  });

  test('a user holding several roles may review when any of them is allowed', () => {
    expect(mayReviewStage(['MLL Accounts', 'MLL Commercial'], 2)).toBe(true);
    expect(mayReviewStage(['MLL Accounts', 'MLL Legal'], 2)).toBe(false);
    expect(mayReviewStage([], 1)).toBe(false);
  });
});
