import { appendFileSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { anchorFileIndex } from './anchor-file-index';
import { anchorFileLines, fileAnchorSink } from './anchors';

/** The anchor file's plumbing, without a database: reading its tail backwards and paging it by line. */
let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'anchor-file-'));
  file = path.join(dir, 'anchors.jsonl');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lineOf = (n: number, length: number) => `${n}:${'x'.repeat(length - String(n).length - 1)}`;

describe('file anchor sink', () => {
  it('finds the last line whatever its length and wherever the read chunks fall', async () => {
    const sink = fileAnchorSink(file);
    await expect(sink.lastLine()).resolves.toBeNull();
    // Lengths around the 4096-byte chunk the tail is read with.
    for (const [i, length] of [1, 4095, 4096, 4097, 10_000, 3, 8191].entries()) {
      await sink.append(lineOf(i, Math.max(length, 2)));
      await expect(sink.lastLine()).resolves.toBe(lineOf(i, Math.max(length, 2)));
    }
  });

  it('cuts an unterminated tail before appending, and never yields it as a line', async () => {
    const sink = fileAnchorSink(file);
    await sink.append('first');
    appendFileSync(file, 'torn-wri');
    await expect(sink.lastLine()).resolves.toBe('first');
    const seen = [];
    for await (const l of anchorFileLines(file)) seen.push(l.text);
    expect(seen).toEqual(['first']);
    await sink.append('second');
    expect(readFileSync(file, 'utf8')).toBe('first\nsecond\n');
    // A file holding only a torn first line starts over.
    writeFileSync(file, 'torn');
    await sink.append('again');
    expect(readFileSync(file, 'utf8')).toBe('again\n');
  });
});

describe('anchor file index', () => {
  it('pages lines latest first or in order, and picks up what was appended since', async () => {
    const index = anchorFileIndex(file);
    await expect(index.page(0, 10, 'DESC')).resolves.toEqual({ total: 0, lines: [] });
    writeFileSync(file, 'a\nbb\nccc\n');
    await expect(index.page(0, 2, 'DESC')).resolves.toEqual({
      total: 3,
      lines: [
        { line: 3, text: 'ccc' },
        { line: 2, text: 'bb' },
      ],
    });
    appendFileSync(file, 'dddd\nee'); // "ee" is still being written
    await expect(index.page(1, 10, 'ASC')).resolves.toEqual({
      total: 4,
      lines: [
        { line: 2, text: 'bb' },
        { line: 3, text: 'ccc' },
        { line: 4, text: 'dddd' },
      ],
    });
    appendFileSync(file, 'e\n');
    await expect(index.page(0, 1, 'DESC')).resolves.toEqual({ total: 5, lines: [{ line: 5, text: 'eee' }] });
    // Replaced by another file: indexed afresh.
    unlinkSync(file);
    writeFileSync(file, 'z\n');
    await expect(index.page(0, 10, 'ASC')).resolves.toEqual({ total: 1, lines: [{ line: 1, text: 'z' }] });
  });
});
