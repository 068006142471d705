import { DomainError } from '../shared/errors';
import { decideUser, evolveUser, initialUserState, userIdForUsername, type RegisterUser, type UserEvent, type UserRegistered } from './users';

const register = (over: Partial<RegisterUser> = {}): RegisterUser => {
  const username = over.username ?? 'Procurement@Demo.test';
  return {
    type: 'RegisterUser',
    userId: userIdForUsername(username),
    username,
    name: 'Priya Sharma',
    credentialId: 'cred-1',
    roles: ['MLL Procurement'],
    companyCodes: ['1000'],
    baId: null,
    ...over,
  };
};

const given = (events: UserEvent[]) => events.reduce(evolveUser, initialUserState);
const refusalOf = (r: UserEvent[] | DomainError): DomainError => {
  if (!(r instanceof DomainError)) throw new Error(`expected a refusal, got ${JSON.stringify(r)}`);
  return r;
};

describe('RegisterUser', () => {
  it('registers a user under the lower-cased e-mail id', () => {
    expect(decideUser(register(), initialUserState)).toEqual([
      {
        type: 'UserRegistered',
        data: {
          userId: userIdForUsername('procurement@demo.test'),
          username: 'procurement@demo.test',
          name: 'Priya Sharma',
          credentialId: 'cred-1',
          roles: ['MLL Procurement'],
          companyCodes: ['1000'],
          baId: null,
          mobileNo: null,
          department: null,
          applications: [{ appId: 'onboard', roleName: 'MLL Procurement' }],
          mustChangePassword: false,
        },
      },
    ]);
  });

  it('derives one user id per e-mail id, whatever its case', () => {
    expect(userIdForUsername(' Ba.Admin@Demo.Test ')).toBe(userIdForUsername('ba.admin@demo.test'));
    expect(userIdForUsername('ba.admin@demo.test')).not.toBe(userIdForUsername('ba.2@demo.test'));
  });

  it('refuses a second registration of the same user', () => {
    const events = decideUser(register(), initialUserState) as UserEvent[];
    expect(refusalOf(decideUser(register(), given(events))).code).toBe('conflict');
  });

  it('refuses a user id not derived from the e-mail id (usernames stay unique)', () => {
    expect(refusalOf(decideUser(register({ userId: 'chosen-by-caller' }), initialUserState)).errors).toHaveProperty('userId');
  });

  it('refuses an invalid e-mail id with the spec’s message', () => {
    const r = refusalOf(decideUser(register({ username: 'not-an-email', userId: userIdForUsername('not-an-email') }), initialUserState));
    expect(r.errors).toEqual({ username: 'Please enter a valid email id' });
  });

  it('refuses unknown roles and users without a role', () => {
    expect(refusalOf(decideUser(register({ roles: ['Superuser'] }), initialUserState)).errors).toHaveProperty('roles');
    expect(refusalOf(decideUser(register({ roles: [] }), initialUserState)).errors).toHaveProperty('roles');
  });

  it('requires a BA for BA roles and keeps staff free of one', () => {
    expect(refusalOf(decideUser(register({ roles: ['BA Admin'] }), initialUserState)).errors).toHaveProperty('baId');
    const ba = decideUser(register({ roles: ['BA Admin'], baId: 'ba-1' }), initialUserState) as UserEvent[];
    expect((ba[0] as UserRegistered).data.baId).toBe('ba-1');
    const staff = decideUser(register({ baId: 'ba-1' }), initialUserState) as UserEvent[];
    expect((staff[0] as UserRegistered).data.baId).toBeNull();
  });

  it('refuses a user who would be both a BA user and staff', () => {
    const r = refusalOf(decideUser(register({ roles: ['BA Admin', 'MLL Procurement'], baId: 'ba-1' }), initialUserState));
    expect(r.errors).toHaveProperty('roles');
  });

  it('refuses a name starting with a formula character', () => {
    expect(refusalOf(decideUser(register({ name: '=HYPERLINK("x")' }), initialUserState)).errors).toHaveProperty('name');
  });
});

describe('roles per application', () => {
  it('keeps the roles a user holds on each application and derives the distinct role names', () => {
    const events = decideUser(
      register({
        roles: [],
        applications: [
          { appId: 'onboard', roleName: 'MLL Procurement' },
          { appId: 'RFP', roleName: 'MLL Procurement' },
          { appId: 'Masters', roleName: 'MDM' },
        ],
      }),
      initialUserState,
    ) as UserRegistered[];
    expect(events[0]?.data.roles).toEqual(['MLL Procurement', 'MDM']);
    expect(events[0]?.data.applications).toHaveLength(3);
  });

  it('refuses an application the spec does not name', () => {
    const r = refusalOf(decideUser(register({ applications: [{ appId: 'Payroll', roleName: 'MDM' }] }), initialUserState));
    expect(r.errors).toEqual({ applications: 'Unknown application: Payroll' });
  });
});

describe('the account after registration', () => {
  const registered = given(decideUser(register({ mobileNo: '9876543210' }), initialUserState) as UserEvent[]);
  const at = (events: UserEvent[] | DomainError) => given([...(decideUser(register({ mobileNo: '9876543210' }), initialUserState) as UserEvent[]), ...(events as UserEvent[])]);

  it('records that the password changed by naming its credential, never a hash', () => {
    const events = decideUser({ type: 'ChangePassword', credentialId: 'cred-2', reason: 'change' }, registered);
    expect(events).toEqual([{ type: 'UserPasswordChanged', data: { userId: registered.userId, reason: 'change', credentialId: 'cred-2' } }]);
    expect(refusalOf(decideUser({ type: 'ChangePassword', credentialId: '', reason: 'change' }, registered)).errors).toHaveProperty('newPassword');
  });

  it('registers an invited account without a password (credentialId null)', () => {
    const [event] = decideUser(register({ credentialId: null, mustChangePassword: true }), initialUserState) as UserRegistered[];
    expect(event?.data.credentialId).toBeNull();
    expect(JSON.stringify(event)).not.toMatch(/passwordHash|scrypt/);
  });

  it('still reads events written before issue 6, which carry the hash itself', () => {
    const legacy = [
      { type: 'UserRegistered', data: { userId: 'u-old', username: 'old@demo.test', name: 'Old', passwordHash: 'scrypt$16384$8$1$c2FsdA==$aGFzaA==', roles: ['MLL Procurement'], companyCodes: ['1000'], baId: null, mustChangePassword: true } },
      { type: 'UserPasswordChanged', data: { userId: 'u-old', passwordHash: 'scrypt$16384$8$1$bmV3$aGFzaA==', reason: 'change' } },
    ] as UserEvent[];
    const state = given(legacy);
    expect(state).toMatchObject({ userId: 'u-old', username: 'old@demo.test', mustChangePassword: false, status: 'active' });
    expect(JSON.stringify(state)).not.toMatch(/scrypt/);
  });

  it('clears the first-login flag once the user sets a password', () => {
    const first = given(decideUser(register({ mustChangePassword: true }), initialUserState) as UserEvent[]);
    expect(first.mustChangePassword).toBe(true);
    const after = (decideUser({ type: 'ChangePassword', credentialId: 'x', reason: 'invitation' }, first) as UserEvent[]).reduce(evolveUser, first);
    expect(after.mustChangePassword).toBe(false);
  });

  it('blocks with a reason, refuses a second block, unblocks, refuses unblocking an active user', () => {
    expect(refusalOf(decideUser({ type: 'BlockUser', reason: '  ' }, registered)).errors).toEqual({ reason: 'Please enter a reason' });
    const blocked = at(decideUser({ type: 'BlockUser', reason: 'Left the company' }, registered));
    expect(blocked.status).toBe('blocked');
    expect(refusalOf(decideUser({ type: 'BlockUser', reason: 'again' }, blocked)).code).toBe('rule');
    expect(refusalOf(decideUser({ type: 'ChangePassword', credentialId: 'x', reason: 'reset' }, blocked)).code).toBe('rule');
    const unblocked = (decideUser({ type: 'UnblockUser', reason: 'Rejoined' }, blocked) as UserEvent[]).reduce(evolveUser, blocked);
    expect(unblocked.status).toBe('active');
    expect(refusalOf(decideUser({ type: 'UnblockUser', reason: 'x' }, unblocked)).code).toBe('rule');
  });

  it('refuses commands for a user that does not exist', () => {
    expect(refusalOf(decideUser({ type: 'BlockUser', reason: 'x' }, initialUserState)).code).toBe('not_found');
  });

  it('updates name, mobile, roles per application and company codes, never turning staff into a BA user', () => {
    const update = {
      type: 'UpdateUser' as const,
      name: 'Priya S',
      mobileNo: '9123456780',
      department: null,
      applications: [{ appId: 'RFP', roleName: 'MLL Commercial' }],
      companyCodes: ['1000', '2000'],
    };
    const state = at(decideUser(update, registered));
    expect(state.roles).toEqual(['MLL Commercial']);
    expect(state.companyCodes).toEqual(['1000', '2000']);
    const toBa = refusalOf(decideUser({ ...update, applications: [{ appId: 'onboard', roleName: 'BA User' }] }, registered));
    expect(toBa.errors).toHaveProperty('roles');
    expect(refusalOf(decideUser({ ...update, mobileNo: '12345' }, registered)).errors).toHaveProperty('mobileNo');
  });

  it('changes e-mail and mobile, recording the old ones, and refuses a change to the same contact', () => {
    const events = decideUser({ type: 'ChangeContact', newEmail: 'New@Demo.test', newMobile: '9000000001' }, registered);
    expect(events).toEqual([
      {
        type: 'UserContactChanged',
        data: {
          userId: registered.userId,
          oldEmail: 'procurement@demo.test',
          newEmail: 'new@demo.test',
          oldMobile: '9876543210',
          newMobile: '9000000001',
        },
      },
    ]);
    const same = decideUser({ type: 'ChangeContact', newEmail: 'procurement@demo.test', newMobile: '9876543210' }, registered);
    expect(refusalOf(same).code).toBe('rule');
    expect(refusalOf(decideUser({ type: 'ChangeContact', newEmail: 'x', newMobile: '1' }, registered)).errors).toEqual({
      newEmail: 'Please enter a valid email id',
      newMobile: 'Please enter a valid 10-digit mobile number starting with 6, 7, 8 or 9',
    });
  });
});
