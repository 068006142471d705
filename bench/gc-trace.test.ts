import { PassThrough } from 'node:stream';
import { collectGcs, parseGc } from './gc-trace';

describe('the --trace-gc reader', () => {
  it('reads a full collection: the heap it left, its time, its pause and its incremental marking steps', () => {
    expect(
      parseGc(
        '[4242:0x62f7e40]    61234 ms: Mark-Compact 120.5 (140.2) -> 80.1 (138.0) MB, 25.1 / 0.0 ms  (+ 35.4 ms in 2 steps since start of marking, biggest step 34.7 ms, walltime since start of marking 135 ms) (average mu = 0.9) finalize incremental marking via task',
      ),
    ).toEqual({ atMs: 61234, full: true, liveMb: 80.1, mainThreadMs: 25.1 + 35.4, longestStopMs: 34.7 });
    expect(parseGc('[1:0x1]  900 ms: Mark-Compact (reduce) 60.0 (70.0) -> 41.5 (69.0) MB, 3.0 / 0.0 ms  (…) low memory')).toEqual({
      atMs: 900,
      full: true,
      liveMb: 41.5,
      mainThreadMs: 3,
      longestStopMs: 3,
    });
  });

  it('reads a scavenge as a young-generation collection with its pause', () => {
    expect(parseGc('[4242:0x62f7e40]    61200 ms: Scavenge 120.1 (140.2) -> 119.0 (140.2) MB, 1.2 / 0.0 ms  (average mu = 1.000) allocation failure;')).toEqual({
      atMs: 61200,
      full: false,
      liveMb: 119,
      mainThreadMs: 1.2,
      longestStopMs: 1.2,
    });
  });

  it('ignores any other output', () => {
    expect(parseGc('api listening on 3000')).toBeNull();
    expect(parseGc('[1:0x1]  20 ms: Mark-Compact started')).toBeNull();
  });

  it('collects from a stream whose lines arrive split across chunks', () => {
    const out = new PassThrough();
    const seen = collectGcs(out);
    out.write('[1:0x1]  10 ms: Mark-Compact 5.0 (6.0) -> 4');
    out.write('.5 (6.0) MB, 1 / 0 ms\n[1:0x1]  20 ms: Scavenge 5 (6) -> 4 (6) MB, 0.5 / 0.0 ms\nnot a trace line\n');
    out.write('[1:0x1]  30 ms: Mark-Compact 5.0 (6.0) -> 4.25 (6.0) MB, 1 / 0 ms\n');
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        expect(seen.map((gc) => [gc.atMs, gc.full, gc.liveMb])).toEqual([
          [10, true, 4.5],
          [20, false, 4],
          [30, true, 4.25],
        ]);
        resolve();
      }),
    );
  });
});
