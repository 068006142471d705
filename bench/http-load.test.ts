import { errorsOf } from './http-load';

describe('errorsOf', () => {
  it('adds up the errors of several results by kind and says them in words', () => {
    const merged = errorsOf([
      { errorKinds: { 'status 503': 2 } },
      { errorKinds: {} },
      { errorKinds: { ECONNRESET: 1, 'status 503': 1 } },
    ]);
    expect(merged).toEqual({ total: 4, kinds: '3 status 503, 1 ECONNRESET' });
  });

  it('says nothing when no result had an error', () => {
    expect(errorsOf([{ errorKinds: {} }, { errorKinds: {} }])).toEqual({ total: 0, kinds: '' });
  });
});
