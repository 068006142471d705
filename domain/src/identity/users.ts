import { v5 as uuidv5 } from 'uuid';
import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { DomainEvent } from '../shared/events';
import { z } from 'zod';
import { fields, fieldErrors, messages } from '../validation/fields';
import { ALL_ROLES, isBaRole, type Role } from './roles';

/**
 * A user account: who may sign in, with which roles, for which company codes and (for BA roles) which BA.
 * Seeding and, later, registration create users through this decider, so accounts are events like
 * everything else. The password arrives already hashed: the domain never sees a password.
 */
export type RegisterUser = {
  type: 'RegisterUser';
  userId: string;
  username: string;
  name: string;
  passwordHash: string;
  roles: readonly string[];
  companyCodes: readonly string[];
  baId: string | null;
};

export type UserCommand = RegisterUser;

export type UserRegistered = DomainEvent<
  'UserRegistered',
  {
    userId: string;
    /** The lower-cased e-mail address the user signs in with. */
    username: string;
    name: string;
    passwordHash: string;
    roles: Role[];
    companyCodes: string[];
    baId: string | null;
  }
>;

/** Event names are wire contracts: add new ones, never rename. */
export type UserEvent = UserRegistered;
export const USER_EVENT_TYPES = ['UserRegistered'] as const satisfies readonly UserEvent['type'][];

export type UserState = {
  userId: string | null;
  username: string | null;
  roles: Role[];
  companyCodes: string[];
  baId: string | null;
};

export const userStreamId = (userId: string): string => `user-${userId}`;

/** Namespace for user ids derived from a username, so one e-mail address can only ever open one stream. */
export const USER_ID_NAMESPACE = '0b7d3a5e-98c4-4c1f-8f0e-3d2b6c4a9e71';

/**
 * User ids are derived from the lower-cased username: the stream's "must not exist yet" check then makes
 * usernames unique without a second index, and re-running a seed finds the same user.
 */
export const userIdForUsername = (username: string): string =>
  uuidv5(username.trim().toLowerCase(), USER_ID_NAMESPACE);

export const userRefusals = {
  alreadyExists: 'A user with this e-mail id already exists',
  idMismatch: 'The user id must be derived from the e-mail id (userIdForUsername)',
  invalid: 'Please correct the highlighted fields',
  noRoles: 'A user needs at least one role',
  unknownRole: (role: string) => `Unknown role: ${role}`,
  baRoleNeedsBa: 'A BA Admin or BA User must belong to a business associate',
  mixedRoles: 'A user is either a business-associate user or a staff member, not both',
} as const;

const registerSchema = z.object({
  username: fields.email,
  name: fields.text.refine((v) => v.trim() !== '', { error: messages.required }),
  passwordHash: z.string().min(1),
  companyCodes: z.array(
    z.string().regex(/^[A-Z0-9]{1,4}$/, { error: 'Company code must be 1-4 letters or digits' }),
  ),
});

export const initialUserState: UserState = {
  userId: null,
  username: null,
  roles: [],
  companyCodes: [],
  baId: null,
};

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
      return {
        userId: event.data.userId,
        username: event.data.username,
        roles: event.data.roles,
        companyCodes: event.data.companyCodes,
        baId: event.data.baId,
      };
    default: {
      const never: never = event.type;
      return never;
    }
  }
}

export function decideUser(command: UserCommand, state: UserState): UserEvent[] | DomainError {
  switch (command.type) {
    case 'RegisterUser': {
      if (state.userId !== null) return new DomainError('conflict', userRefusals.alreadyExists);
      const username = command.username.trim().toLowerCase();
      // The id is what makes the username unique (one stream per address), so it must be the derived one.
      if (command.userId !== userIdForUsername(username))
        return new DomainError('validation', userRefusals.idMismatch, { userId: userRefusals.idMismatch });
      const parsed = registerSchema.safeParse({ ...command, username });
      if (!parsed.success) return new DomainError('validation', userRefusals.invalid, fieldErrors(parsed.error));
      const refuse = (field: string, message: string) => new DomainError('validation', message, { [field]: message });
      if (command.roles.length === 0) return refuse('roles', userRefusals.noRoles);
      const unknown = command.roles.find((r) => !(ALL_ROLES as readonly string[]).includes(r));
      if (unknown !== undefined) return refuse('roles', userRefusals.unknownRole(unknown));
      const roles = [...new Set(command.roles)] as Role[];
      const baRoles = roles.filter(isBaRole);
      if (baRoles.length > 0 && baRoles.length !== roles.length) return refuse('roles', userRefusals.mixedRoles);
      if (baRoles.length > 0 && !command.baId) return refuse('baId', userRefusals.baRoleNeedsBa);
      return [
        {
          type: 'UserRegistered',
          data: {
            userId: command.userId,
            username,
            name: parsed.data.name.trim(),
            passwordHash: command.passwordHash,
            roles,
            companyCodes: [...new Set(parsed.data.companyCodes)],
            // Staff act on many BAs: only BA users are tied to one.
            baId: baRoles.length > 0 ? command.baId : null,
          },
        },
      ];
    }
    default: {
      const never: never = command.type;
      return never;
    }
  }
}

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  initialState: initialUserState,
  evolve: evolveUser,
  decide: (command, state) => decideUser(command, state),
};
