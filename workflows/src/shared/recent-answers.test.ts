import { recentAnswers } from './recent-answers';

describe('recentAnswers', () => {
  test('answers a request id seen before, keeps at most the limit (oldest out first), and carries over', () => {
    const recent = recentAnswers<string>(undefined, 2);
    recent.remember('a', 'A');
    recent.remember('b', 'B');
    expect(recent.answered({ requestId: 'a' })).toBe('A');
    recent.remember('c', 'C');
    expect(recent.answered({ requestId: 'a' })).toBeUndefined();
    expect(recent.answered({ requestId: 'c' })).toBe('C');
    expect(recent.answered({})).toBeUndefined();
    expect(recent.answered(null)).toBeUndefined();
    const next = recentAnswers<string>(recent.entries(), 2);
    expect(next.entries()).toEqual([
      ['b', 'B'],
      ['c', 'C'],
    ]);
  });
});
