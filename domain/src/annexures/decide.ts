import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { StoredFile } from '../shared/files';
import type { AnnexureCommand, AnnexureEvent } from './events';

export type AnnexureState = {
  status: 'none' | 'published' | 'withdrawn';
  title: string | null;
  file: StoredFile | null;
};

export const initialAnnexureState: AnnexureState = { status: 'none', title: null, file: null };

export const annexureMessages = {
  exists: 'This annexure already exists',
  notFound: 'Annexure not found',
  withdrawn: 'This annexure has been withdrawn',
} as const;

function evolve(state: AnnexureState, event: AnnexureEvent): AnnexureState {
  switch (event.type) {
    case 'AnnexureUploaded':
    case 'AnnexureReplaced':
      return { status: 'published', title: event.data.title, file: event.data.file };
    case 'AnnexureWithdrawn':
      return { ...state, status: 'withdrawn' };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

const sameFile = (a: StoredFile, b: StoredFile) =>
  a.sha256 === b.sha256 && a.name === b.name && a.type === b.type && a.size === b.size;

function decide(command: AnnexureCommand, state: AnnexureState): AnnexureEvent[] | DomainError {
  switch (command.type) {
    case 'UploadAnnexure':
      if (state.status !== 'none') return new DomainError('conflict', annexureMessages.exists);
      return [{ type: 'AnnexureUploaded', data: { id: command.id, title: command.title, file: command.file } }];
    case 'ReplaceAnnexure': {
      if (state.status === 'none' || !state.title || !state.file) return new DomainError('not_found', annexureMessages.notFound);
      if (state.status === 'withdrawn') return new DomainError('rule', annexureMessages.withdrawn);
      const title = command.title ?? state.title;
      const file = command.file ?? state.file;
      // The same title and the same file again: nothing happened, nothing is recorded.
      if (title === state.title && sameFile(file, state.file)) return [];
      return [
        {
          type: 'AnnexureReplaced',
          data: { id: command.id, title, file, previous: { title: state.title, file: state.file } },
        },
      ];
    }
    case 'WithdrawAnnexure':
      if (state.status === 'none') return new DomainError('not_found', annexureMessages.notFound);
      // Withdrawing twice is the same as once.
      return state.status === 'withdrawn' ? [] : [{ type: 'AnnexureWithdrawn', data: { id: command.id } }];
    default: {
      const unknown: never = command;
      return unknown;
    }
  }
}

export const annexureDecider: Decider<AnnexureCommand, AnnexureEvent, AnnexureState> = {
  initialState: initialAnnexureState,
  evolve,
  decide: (command, state) => decide(command, state),
};
