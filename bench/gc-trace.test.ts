import { PassThrough } from 'node:stream';
import { collectMajorGcs, parseMajorGc } from './gc-trace';

describe('the --trace-gc reader', () => {
  it('reads the heap left after a full collection, and its time', () => {
    expect(
      parseMajorGc('[4242:0x62f7e40]    61234 ms: Mark-Compact 120.5 (140.2) -> 80.1 (138.0) MB, 25.1 / 0.0 ms  (average mu = 0.9) allocation failure'),
    ).toEqual({ atMs: 61234, liveMb: 80.1 });
    expect(parseMajorGc('[1:0x1]  900 ms: Mark-Compact (reduce) 60.0 (70.0) -> 41.5 (69.0) MB, 3.0 / 0.0 ms  (…) low memory')).toEqual({
      atMs: 900,
      liveMb: 41.5,
    });
  });

  it('ignores scavenges and any other output', () => {
    expect(parseMajorGc('[4242:0x62f7e40]    61200 ms: Scavenge 120.1 (140.2) -> 119.0 (140.2) MB, 1.2 / 0.0 ms')).toBeNull();
    expect(parseMajorGc('api listening on 3000')).toBeNull();
  });

  it('collects full collections from a stream whose lines arrive split across chunks', () => {
    const out = new PassThrough();
    const seen = collectMajorGcs(out);
    out.write('[1:0x1]  10 ms: Mark-Compact 5.0 (6.0) -> 4');
    out.write('.5 (6.0) MB, 1 / 0 ms\n[1:0x1]  20 ms: Scavenge 5 (6) -> 4 (6) MB\n');
    out.write('[1:0x1]  30 ms: Mark-Compact 5.0 (6.0) -> 4.25 (6.0) MB, 1 / 0 ms\n');
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        expect(seen).toEqual([
          { atMs: 10, liveMb: 4.5 },
          { atMs: 30, liveMb: 4.25 },
        ]);
        resolve();
      }),
    );
  });
});
