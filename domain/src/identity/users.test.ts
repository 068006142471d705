import { DomainError } from '../shared/errors';
import { decideUser, evolveUser, initialUserState, userIdForUsername, type RegisterUser, type UserEvent } from './users';

const register = (over: Partial<RegisterUser> = {}): RegisterUser => {
  const username = over.username ?? 'Procurement@Demo.test';
  return {
    type: 'RegisterUser',
    userId: userIdForUsername(username),
    username,
    name: 'Priya Sharma',
    passwordHash: 'scrypt$16384$8$1$c2FsdA==$aGFzaA==',
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
          passwordHash: 'scrypt$16384$8$1$c2FsdA==$aGFzaA==',
          roles: ['MLL Procurement'],
          companyCodes: ['1000'],
          baId: null,
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
    expect(ba[0]?.data.baId).toBe('ba-1');
    const staff = decideUser(register({ baId: 'ba-1' }), initialUserState) as UserEvent[];
    expect(staff[0]?.data.baId).toBeNull();
  });

  it('refuses a user who would be both a BA user and staff', () => {
    const r = refusalOf(decideUser(register({ roles: ['BA Admin', 'MLL Procurement'], baId: 'ba-1' }), initialUserState));
    expect(r.errors).toHaveProperty('roles');
  });

  it('refuses a name starting with a formula character', () => {
    expect(refusalOf(decideUser(register({ name: '=HYPERLINK("x")' }), initialUserState)).errors).toHaveProperty('name');
  });
});
