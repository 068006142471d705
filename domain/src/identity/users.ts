import { v5 as uuidv5 } from 'uuid';
import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { DomainEvent } from '../shared/events';
import { z } from 'zod';
import { fields, fieldErrors, messages } from '../validation/fields';
import { defaultAccess, isAppId, rolesOf, type AppAccess } from './applications';
import { ALL_ROLES, isBaRole, type Role } from './roles';

/**
 * A user account: who may sign in, with which roles on which applications, for which company codes and (for
 * BA roles) which BA. Seeding, registration and the user screens all go through this decider, so accounts are
 * events like everything else. The domain never sees a password nor its hash: a password lives in the API's
 * `credentials` table, and commands and events only name it (`credentialId`). Events written before that
 * (issue 6) carry `passwordHash`; they are read as they are, and the users projection moves such a hash into
 * the credentials table.
 */
export type UserKind = 'staff' | 'ba';
export type UserStatus = 'active' | 'blocked';
export type PasswordChangeReason = 'change' | 'reset' | 'invitation' | 'contact-change';

export type RegisterUser = {
  type: 'RegisterUser';
  userId: string;
  username: string;
  name: string;
  /** The credential (password) the API stored for the user; null for an invited account with none yet. */
  credentialId?: string | null;
  roles: readonly string[];
  companyCodes: readonly string[];
  baId: string | null;
  mobileNo?: string | null;
  department?: string | null;
  /** Roles per application; without it every role is held on the onboarding application. */
  applications?: readonly { appId: string; roleName: string }[];
  /** Set for accounts someone else created: the first sign-in must choose a password. */
  mustChangePassword?: boolean;
  /** A child Bill-Hub user: the GST state (catalogue id) it bills for, one per state and BA. */
  billHubStateId?: number | null;
};
export type ChangePassword = { type: 'ChangePassword'; credentialId: string; reason: PasswordChangeReason };
export type BlockUser = { type: 'BlockUser'; reason: string };
export type UnblockUser = { type: 'UnblockUser'; reason: string };
export type UpdateUser = {
  type: 'UpdateUser';
  name: string;
  mobileNo: string | null;
  department: string | null;
  applications: readonly { appId: string; roleName: string }[];
  companyCodes: readonly string[];
};
export type ChangeContact = { type: 'ChangeContact'; newEmail: string; newMobile: string };

export type UserCommand = RegisterUser | ChangePassword | BlockUser | UnblockUser | UpdateUser | ChangeContact;

export type UserRegistered = DomainEvent<
  'UserRegistered',
  {
    userId: string;
    /** The lower-cased e-mail address the user signs in with. */
    username: string;
    name: string;
    /** The credential that is the password (null: none yet). Absent on events written before issue 6. */
    credentialId?: string | null;
    /** Only on events written before issue 6: read, never written. */
    passwordHash?: string;
    roles: Role[];
    companyCodes: string[];
    baId: string | null;
    /** Added with the identity capability: absent on the first seed's events (read as null / defaults). */
    mobileNo?: string | null;
    department?: string | null;
    applications?: AppAccess[];
    mustChangePassword?: boolean;
    /** Only on child Bill-Hub users' events (absent elsewhere, read as null). */
    billHubStateId?: number;
  }
>;
export type UserPasswordChanged = DomainEvent<
  'UserPasswordChanged',
  {
    userId: string;
    reason: PasswordChangeReason;
    /** The new password's credential. Absent on events written before issue 6, which carry passwordHash instead. */
    credentialId?: string;
    passwordHash?: string;
  }
>;
export type UserBlocked = DomainEvent<'UserBlocked', { userId: string; reason: string }>;
export type UserUnblocked = DomainEvent<'UserUnblocked', { userId: string; reason: string }>;
export type UserUpdated = DomainEvent<
  'UserUpdated',
  {
    userId: string;
    name: string;
    mobileNo: string | null;
    department: string | null;
    applications: AppAccess[];
    roles: Role[];
    companyCodes: string[];
  }
>;
export type UserContactChanged = DomainEvent<
  'UserContactChanged',
  { userId: string; oldEmail: string; newEmail: string; oldMobile: string | null; newMobile: string }
>;

/** Event names are wire contracts: add new ones, never rename. */
export type UserEvent =
  | UserRegistered
  | UserPasswordChanged
  | UserBlocked
  | UserUnblocked
  | UserUpdated
  | UserContactChanged;
export const USER_EVENT_TYPES = [
  'UserRegistered',
  'UserPasswordChanged',
  'UserBlocked',
  'UserUnblocked',
  'UserUpdated',
  'UserContactChanged',
] as const satisfies readonly UserEvent['type'][];

/** How many earlier passwords a new one may not repeat (issue 5: "the last 5 passwords may not be reused"). */
export const PASSWORD_HISTORY_LENGTH = 5;

export type UserState = {
  userId: string | null;
  username: string | null;
  name: string | null;
  mobileNo: string | null;
  roles: Role[];
  applications: AppAccess[];
  companyCodes: string[];
  baId: string | null;
  status: UserStatus;
  mustChangePassword: boolean;
};

export const userStreamId = (userId: string): string => `user-${userId}`;

/** Namespace for user ids derived from a username, so one e-mail address can only ever open one stream. */
export const USER_ID_NAMESPACE = '0b7d3a5e-98c4-4c1f-8f0e-3d2b6c4a9e71';

/**
 * User ids are derived from the lower-cased username: the stream's "must not exist yet" check then makes
 * usernames unique, and re-running a seed finds the same user. After a contact change the user keeps its id
 * under the new e-mail; the API checks the users read model so nobody else registers that new address.
 */
export const userIdForUsername = (username: string): string =>
  uuidv5(username.trim().toLowerCase(), USER_ID_NAMESPACE);

export const userRefusals = {
  alreadyExists: 'A user with this e-mail id already exists',
  idMismatch: 'The user id must be derived from the e-mail id (userIdForUsername)',
  invalid: 'Please correct the highlighted fields',
  noRoles: 'A user needs at least one role',
  unknownRole: (role: string) => `Unknown role: ${role}`,
  unknownApplication: (app: string) => `Unknown application: ${app}`,
  baRoleNeedsBa: 'A BA Admin or BA User must belong to a business associate',
  mixedRoles: 'A user is either a business-associate user or a staff member, not both',
  notFound: 'User not found',
  alreadyBlocked: 'This user is already blocked',
  notBlocked: 'This user is not blocked',
  reasonRequired: 'Please enter a reason',
  blocked: 'Your account has been blocked. Please contact admin team for support',
  sameContact: 'The new e-mail id and mobile number are the same as the registered ones',
} as const;

const companyCodes = z.array(z.string().regex(/^[A-Z0-9]{1,4}$/, { error: 'Company code must be 1-4 letters or digits' }));
const personName = fields.text.refine((v) => v.trim() !== '', { error: messages.required });

const registerSchema = z.object({
  username: fields.email,
  name: personName,
  credentialId: z.string().min(1).nullable().optional(),
  companyCodes,
  mobileNo: fields.mobile.nullable().optional(),
  department: fields.text.nullable().optional(),
  billHubStateId: z.number().int().positive().nullable().optional(),
});

const updateSchema = z.object({
  name: personName,
  mobileNo: fields.mobile.nullable(),
  department: fields.text.nullable(),
  companyCodes,
});

const reasonSchema = fields.text.refine((v) => v.trim() !== '', { error: userRefusals.reasonRequired });

export const initialUserState: UserState = {
  userId: null,
  username: null,
  name: null,
  mobileNo: null,
  roles: [],
  applications: [],
  companyCodes: [],
  baId: null,
  status: 'active',
  mustChangePassword: false,
};

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered': {
      const d = event.data;
      return {
        userId: d.userId,
        username: d.username,
        name: d.name,
        mobileNo: d.mobileNo ?? null,
        roles: d.roles,
        applications: d.applications ?? defaultAccess(d.roles),
        companyCodes: d.companyCodes,
        baId: d.baId,
        status: 'active',
        mustChangePassword: d.mustChangePassword ?? false,
      };
    }
    case 'UserPasswordChanged':
      return { ...state, mustChangePassword: false };
    case 'UserBlocked':
      return { ...state, status: 'blocked' };
    case 'UserUnblocked':
      return { ...state, status: 'active' };
    case 'UserUpdated': {
      const d = event.data;
      return { ...state, name: d.name, mobileNo: d.mobileNo, applications: d.applications, roles: d.roles, companyCodes: d.companyCodes };
    }
    case 'UserContactChanged':
      return { ...state, username: event.data.newEmail, mobileNo: event.data.newMobile };
    default: {
      const never: never = event;
      return never;
    }
  }
}

const refuse = (field: string, message: string) => new DomainError('validation', message, { [field]: message });

/** Roles per application, checked: known applications and roles, BA and staff roles never mixed. */
function checkAccess(
  access: readonly { appId: string; roleName: string }[],
  baId: string | null,
): { applications: AppAccess[]; roles: Role[] } | DomainError {
  if (access.length === 0) return refuse('roles', userRefusals.noRoles);
  const badApp = access.find((a) => !isAppId(a.appId));
  if (badApp) return refuse('applications', userRefusals.unknownApplication(badApp.appId));
  const badRole = access.find((a) => !(ALL_ROLES as readonly string[]).includes(a.roleName));
  if (badRole) return refuse('roles', userRefusals.unknownRole(badRole.roleName));
  const seen = new Set<string>();
  const applications = (access as AppAccess[]).filter((a) => {
    const key = `${a.appId}|${a.roleName}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
  const roles = rolesOf(applications);
  const baRoles = roles.filter(isBaRole);
  if (baRoles.length > 0 && baRoles.length !== roles.length) return refuse('roles', userRefusals.mixedRoles);
  if (baRoles.length > 0 && !baId) return refuse('baId', userRefusals.baRoleNeedsBa);
  return { applications, roles };
}

export function decideUser(command: UserCommand, state: UserState): UserEvent[] | DomainError {
  if (command.type !== 'RegisterUser' && state.userId === null) return new DomainError('not_found', userRefusals.notFound);
  const userId = state.userId ?? '';
  switch (command.type) {
    case 'RegisterUser': {
      if (state.userId !== null) return new DomainError('conflict', userRefusals.alreadyExists);
      const username = command.username.trim().toLowerCase();
      // The id is what makes the username unique (one stream per address), so it must be the derived one.
      if (command.userId !== userIdForUsername(username))
        return new DomainError('validation', userRefusals.idMismatch, { userId: userRefusals.idMismatch });
      const parsed = registerSchema.safeParse({ ...command, username });
      if (!parsed.success) return new DomainError('validation', userRefusals.invalid, fieldErrors(parsed.error));
      if (command.roles.length === 0 && !command.applications?.length) return refuse('roles', userRefusals.noRoles);
      const unknown = command.roles.find((r) => !(ALL_ROLES as readonly string[]).includes(r));
      if (unknown !== undefined) return refuse('roles', userRefusals.unknownRole(unknown));
      const access = checkAccess(command.applications ?? defaultAccess(command.roles as Role[]), command.baId);
      if (access instanceof DomainError) return access;
      const isBa = access.roles.some(isBaRole);
      return [
        {
          type: 'UserRegistered',
          data: {
            userId: command.userId,
            username,
            name: parsed.data.name.trim(),
            credentialId: command.credentialId ?? null,
            roles: access.roles,
            companyCodes: [...new Set(parsed.data.companyCodes)],
            // Staff act on many BAs: only BA users are tied to one.
            baId: isBa ? command.baId : null,
            mobileNo: parsed.data.mobileNo ?? null,
            department: parsed.data.department ?? null,
            applications: access.applications,
            mustChangePassword: command.mustChangePassword ?? false,
            // Only a BA's child Bill-Hub user bills for a state; the key is left out everywhere else.
            ...(isBa && parsed.data.billHubStateId ? { billHubStateId: parsed.data.billHubStateId } : {}),
          },
        },
      ];
    }
    case 'ChangePassword':
      if (state.status === 'blocked') return new DomainError('rule', userRefusals.blocked);
      if (!command.credentialId) return refuse('newPassword', messages.required);
      return [{ type: 'UserPasswordChanged', data: { userId, reason: command.reason, credentialId: command.credentialId } }];
    case 'BlockUser':
    case 'UnblockUser': {
      const reason = reasonSchema.safeParse(command.reason ?? '');
      if (!reason.success) return new DomainError('validation', userRefusals.reasonRequired, { reason: reason.error.issues[0]?.message ?? userRefusals.reasonRequired });
      if (command.type === 'BlockUser') {
        if (state.status === 'blocked') return new DomainError('rule', userRefusals.alreadyBlocked);
        return [{ type: 'UserBlocked', data: { userId, reason: reason.data.trim() } }];
      }
      if (state.status !== 'blocked') return new DomainError('rule', userRefusals.notBlocked);
      return [{ type: 'UserUnblocked', data: { userId, reason: reason.data.trim() } }];
    }
    case 'UpdateUser': {
      const parsed = updateSchema.safeParse(command);
      if (!parsed.success) return new DomainError('validation', userRefusals.invalid, fieldErrors(parsed.error));
      // A BA user stays a BA user and staff stays staff: switching sides would move the account between BAs.
      const wantsBa = command.applications.some((a) => isBaRole(a.roleName));
      if (command.applications.length > 0 && wantsBa !== state.roles.some(isBaRole))
        return refuse('roles', userRefusals.mixedRoles);
      const access = checkAccess(command.applications, state.baId);
      if (access instanceof DomainError) return access;
      return [
        {
          type: 'UserUpdated',
          data: {
            userId,
            name: parsed.data.name.trim(),
            mobileNo: parsed.data.mobileNo,
            department: parsed.data.department,
            applications: access.applications,
            roles: access.roles,
            companyCodes: [...new Set(parsed.data.companyCodes)],
          },
        },
      ];
    }
    case 'ChangeContact': {
      const parsed = z.object({ newEmail: fields.email, newMobile: fields.mobile }).safeParse({
        newEmail: command.newEmail.trim().toLowerCase(),
        newMobile: command.newMobile.trim(),
      });
      if (!parsed.success) return new DomainError('validation', userRefusals.invalid, fieldErrors(parsed.error));
      const { newEmail, newMobile } = parsed.data;
      if (newEmail === state.username && newMobile === state.mobileNo) return new DomainError('rule', userRefusals.sameContact);
      return [
        {
          type: 'UserContactChanged',
          data: { userId, oldEmail: state.username ?? '', newEmail, oldMobile: state.mobileNo, newMobile },
        },
      ];
    }
    default: {
      const never: never = command;
      return never;
    }
  }
}

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  initialState: initialUserState,
  evolve: evolveUser,
  decide: (command, state) => decideUser(command, state),
};
