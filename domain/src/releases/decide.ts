import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { ReleaseCommand } from './commands';
import type { ReleaseContentFields, ReleaseEvent } from './events';
import {
  parseRelease,
  parseReleaseContent,
  releaseIdOf,
  releaseMessages,
  type DeviceType,
  type ReleaseContent,
} from './fields';

/**
 * One release note per version and device type (`release-<version>-<device>`). Published, edited, withdrawn;
 * a withdrawn release may be published again (a fresh entry on the same stream). Who may do this (MLL-ADMIN)
 * is the API's rule.
 */
export type ReleaseStatus = 'none' | 'published' | 'withdrawn';

export type ReleaseState = {
  status: ReleaseStatus;
  id: string | null;
  versionReleased: string | null;
  deviceType: DeviceType | null;
  content: ReleaseContentFields | null;
};

export const initialReleaseState: ReleaseState = {
  status: 'none',
  id: null,
  versionReleased: null,
  deviceType: null,
  content: null,
};

export function evolveRelease(state: ReleaseState, event: ReleaseEvent): ReleaseState {
  switch (event.type) {
    case 'ReleasePublished': {
      const { id, versionReleased, deviceType, featureClass, releasedOn, newFeatures, bugFixes } = event.data;
      const content = { featureClass, releasedOn, newFeatures, bugFixes };
      return { status: 'published', id, versionReleased, deviceType, content };
    }
    case 'ReleaseChanged':
      return state.content ? { ...state, content: { ...state.content, ...event.data.after } } : state;
    case 'ReleaseWithdrawn':
      return { ...state, status: 'withdrawn' };
    default: {
      const never: never = event;
      return never;
    }
  }
}

const invalid = (errors: Record<string, string>) => new DomainError('validation', releaseMessages.invalid, errors);

/** JSON with sorted keys: an event read back from the store (jsonb) does not keep the key order it was written in. */
const canonical = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(',')}]`
    : v !== null && typeof v === 'object'
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : JSON.stringify(v);
const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/** The fields of `next` that differ from `current`, as before/after pairs. */
function diff(current: ReleaseContentFields, next: ReleaseContent) {
  const before: Partial<ReleaseContentFields> = {};
  const after: Partial<ReleaseContentFields> = {};
  for (const key of ['featureClass', 'releasedOn', 'newFeatures', 'bugFixes'] as const) {
    if (same(current[key], next[key])) continue;
    Object.assign(before, { [key]: current[key] });
    Object.assign(after, { [key]: next[key] });
  }
  return { before, after };
}

export function decideRelease(command: ReleaseCommand, state: ReleaseState): ReleaseEvent[] | DomainError {
  switch (command.type) {
    case 'PublishRelease': {
      const parsed = parseRelease(command.input);
      if ('errors' in parsed) return invalid(parsed.errors);
      const r = parsed.data;
      if (state.status === 'published')
        return new DomainError('conflict', releaseMessages.exists(r.versionReleased, r.deviceType));
      // The stream is named by the pair: a publish on another pair's stream would corrupt both.
      if (state.id !== null && state.id !== releaseIdOf(r.versionReleased, r.deviceType))
        return invalid({ versionReleased: releaseMessages.identityFixed });
      return [
        {
          type: 'ReleasePublished',
          data: {
            id: releaseIdOf(r.versionReleased, r.deviceType),
            versionReleased: r.versionReleased,
            deviceType: r.deviceType,
            featureClass: r.featureClass,
            releasedOn: r.releasedOn,
            newFeatures: r.newFeatures,
            bugFixes: r.bugFixes,
          },
        },
      ];
    }
    case 'ChangeRelease': {
      if (state.status !== 'published' || !state.content || state.id !== command.id)
        return new DomainError('not_found', releaseMessages.notFound);
      const parsed = parseReleaseContent(command.input);
      if ('errors' in parsed) return invalid(parsed.errors);
      const { before, after } = diff(state.content, parsed.data);
      // Saving an unchanged form is not an edit: nothing to record.
      if (Object.keys(after).length === 0) return [];
      return [{ type: 'ReleaseChanged', data: { id: state.id, before, after } }];
    }
    case 'WithdrawRelease': {
      if (state.status !== 'published' || state.id !== command.id || !state.versionReleased || !state.deviceType)
        return new DomainError('not_found', releaseMessages.notFound);
      return [
        {
          type: 'ReleaseWithdrawn',
          data: { id: state.id, versionReleased: state.versionReleased, deviceType: state.deviceType },
        },
      ];
    }
    default: {
      const never: never = command;
      return never;
    }
  }
}

export const releaseDecider: Decider<ReleaseCommand, ReleaseEvent, ReleaseState> = {
  initialState: initialReleaseState,
  evolve: evolveRelease,
  decide: (command, state) => decideRelease(command, state),
};
