import { canonicalEventText, computeEventHash, verifyRows, type ChainRow } from './hash';
import { GENESIS_HASH } from './schema';

const base: Omit<ChainRow, 'prevHash' | 'hash'> = {
  globalPosition: 1,
  streamId: 'ba-42',
  version: 0,
  eventId: '6f1c2b52-4a57-4f0e-9a55-0c7e1d0f5a11',
  type: 'OnboardingSubmitted',
  recordedMicros: '1767225600000000',
  // PostgreSQL's jsonb text output, as the verifier reads it back with data::text.
  dataText: '{"baId": "42", "note": "ü|x"}',
  metadataText: '{"actor": {"role": "BA Admin", "userId": "u-1"}}',
};

/** Builds a valid chain the way append_to_stream does. */
function chain(count: number): ChainRow[] {
  const rows: ChainRow[] = [];
  let prev = GENESIS_HASH;
  for (let i = 0; i < count; i++) {
    const row = { ...base, globalPosition: i + 1, version: i, dataText: `{"n": ${i}}` };
    const hash = computeEventHash(prev, row);
    rows.push({ ...row, prevHash: prev, hash });
    prev = hash;
  }
  return rows;
}

const start = { position: 0, hash: GENESIS_HASH, checked: 0 };

describe('event hash', () => {
  it('has a fixed canonical text with UTF-8 byte lengths before the free text', () => {
    expect(canonicalEventText(GENESIS_HASH, base)).toBe(
      `${GENESIS_HASH}|1|0|6f1c2b52-4a57-4f0e-9a55-0c7e1d0f5a11|1767225600000000` +
        '|5:ba-42|19:OnboardingSubmitted|30:{"baId": "42", "note": "ü|x"}' +
        '|48:{"actor": {"role": "BA Admin", "userId": "u-1"}}',
    );
  });

  it("equals the hash PostgreSQL's event_hash() computes for the same event", () => {
    // Computed with: select event_hash(repeat('0',64), 1, 0, '6f1c2b52-…', 1767225600000000, 'ba-42', …)
    // A change here invalidates every stored chain: the SQL and the Node side must change together.
    const fromPostgres = 'bc6b6284bc16e0f43b62b016e497883375b7800a58d9054c6a2469ad261b53f5';
    expect(computeEventHash(GENESIS_HASH, base)).toBe(fromPostgres);
  });

  it('tells apart events whose fields would read the same if simply joined', () => {
    const a = canonicalEventText(GENESIS_HASH, { ...base, streamId: 'ba|OnboardingSubmitted', type: 'x' });
    const b = canonicalEventText(GENESIS_HASH, { ...base, streamId: 'ba', type: 'OnboardingSubmitted|x' });
    expect(a).not.toBe(b);
  });
});

describe('verifyRows', () => {
  it('accepts an intact chain and counts every event', () => {
    const rows = chain(4);
    expect(verifyRows(rows, start)).toEqual({ cursor: { position: 4, hash: rows[3]?.hash, checked: 4 } });
  });

  it('continues across pages from the cursor', () => {
    const rows = chain(4);
    const first = verifyRows(rows.slice(0, 2), start);
    expect(verifyRows(rows.slice(2), first.cursor).cursor.checked).toBe(4);
  });

  it('names the event whose content was altered', () => {
    const rows = chain(4);
    rows[2] = { ...rows[2]!, dataText: '{"n": 999}' };
    expect(verifyRows(rows, start)).toMatchObject({
      cursor: { position: 2, checked: 2 },
      broken: {
        globalPosition: 3,
        eventId: base.eventId,
        streamId: 'ba-42',
        reason: expect.stringMatching(/altered/),
      },
    });
  });

  it('catches an altered event whose own hash was recomputed, at the next link', () => {
    const rows = chain(3);
    const forged = { ...rows[1]!, dataText: '{"n": 999}' };
    rows[1] = { ...forged, hash: computeEventHash(forged.prevHash, forged) };
    expect(verifyRows(rows, start).broken).toMatchObject({
      globalPosition: 3,
      reason: expect.stringMatching(/prev_hash/),
    });
  });

  it('reports a missing event as a gap in the positions', () => {
    const rows = chain(4);
    rows.splice(1, 1);
    expect(verifyRows(rows, start).broken).toMatchObject({
      globalPosition: 3,
      reason: 'events at positions 2..2 are missing',
    });
  });

  it('rejects a chain that does not start from the genesis hash', () => {
    const rows = chain(2);
    expect(verifyRows(rows, { ...start, hash: 'f'.repeat(64) }).broken).toMatchObject({ globalPosition: 1 });
  });
});
