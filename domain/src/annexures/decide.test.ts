import { DomainError } from '../shared/errors';
import type { StoredFile } from '../shared/files';
import { annexureDecider, annexureMessages, type AnnexureState } from './decide';
import type { AnnexureCommand, AnnexureEvent } from './events';

const policy: StoredFile = { name: 'PO Policy.pdf', size: 1200, type: 'application/pdf', sha256: 'a'.repeat(64) };
const rates: StoredFile = {
  name: 'Rates.xlsx',
  size: 5400,
  type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  sha256: 'b'.repeat(64),
};
const meta = {
  actor: { userId: 'admin', role: 'MLL-ADMIN' },
  at: '2026-01-05T10:00:00.000Z',
  companyCode: null,
  correlationId: 'c',
  causationId: null,
  workflowId: null,
  requestId: null,
};

/** Given these events, when the command is decided, then these events (or this refusal). */
function given(events: AnnexureEvent[]) {
  const state: AnnexureState = events.reduce(annexureDecider.evolve, annexureDecider.initialState);
  return { when: (command: AnnexureCommand) => annexureDecider.decide(command, state, meta), state };
}
const uploaded: AnnexureEvent = { type: 'AnnexureUploaded', data: { id: 'x1', title: 'Transport PO policy', file: policy } };

describe('annexure decider', () => {
  it('uploads a new annexure once', () => {
    expect(given([]).when({ type: 'UploadAnnexure', id: 'x1', title: 'Transport PO policy', file: policy })).toEqual([uploaded]);
    const again = given([uploaded]).when({ type: 'UploadAnnexure', id: 'x1', title: 'Other', file: rates });
    expect(again).toEqual(new DomainError('conflict', annexureMessages.exists));
  });

  it('replaces the title and/or the file, recording what was there before', () => {
    expect(given([uploaded]).when({ type: 'ReplaceAnnexure', id: 'x1', file: rates })).toEqual([
      {
        type: 'AnnexureReplaced',
        data: { id: 'x1', title: 'Transport PO policy', file: rates, previous: { title: 'Transport PO policy', file: policy } },
      },
    ]);
    const renamed = given([uploaded]).when({ type: 'ReplaceAnnexure', id: 'x1', title: 'Warehousing PO policy' });
    expect(renamed).toMatchObject([{ data: { title: 'Warehousing PO policy', file: policy } }]);
    expect(given([uploaded]).state).toEqual({ status: 'published', title: 'Transport PO policy', file: policy });
  });

  it('records nothing when the replacement changes nothing', () => {
    expect(given([uploaded]).when({ type: 'ReplaceAnnexure', id: 'x1', title: 'Transport PO policy', file: { ...policy } })).toEqual([]);
  });

  it('refuses to replace an annexure that does not exist or was withdrawn', () => {
    expect(given([]).when({ type: 'ReplaceAnnexure', id: 'x1', title: 'T' })).toEqual(new DomainError('not_found', annexureMessages.notFound));
    const withdrawn: AnnexureEvent = { type: 'AnnexureWithdrawn', data: { id: 'x1' } };
    expect(given([uploaded, withdrawn]).when({ type: 'ReplaceAnnexure', id: 'x1', title: 'T' })).toEqual(
      new DomainError('rule', annexureMessages.withdrawn),
    );
  });

  it('withdraws once; a second withdrawal records nothing; an unknown annexure is not found', () => {
    expect(given([uploaded]).when({ type: 'WithdrawAnnexure', id: 'x1' })).toEqual([{ type: 'AnnexureWithdrawn', data: { id: 'x1' } }]);
    expect(given([uploaded, { type: 'AnnexureWithdrawn', data: { id: 'x1' } }]).when({ type: 'WithdrawAnnexure', id: 'x1' })).toEqual([]);
    expect(given([]).when({ type: 'WithdrawAnnexure', id: 'x1' })).toBeInstanceOf(DomainError);
  });
});
