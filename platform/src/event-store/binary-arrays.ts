/**
 * One-dimensional PostgreSQL arrays in the binary wire format (array_recv), for parameters node-postgres sends
 * as they are (a Buffer parameter goes out in binary). The adapter's append sends its columns this way: each
 * event's data arrives as its own jsonb, parsed once by jsonb_recv, with no text array literal to escape in
 * Node and to unescape in the server.
 *
 * Layout: ndim (1; 0 for an empty array, which ends after the OID), has-nulls flag (0: these arrays never hold NULL), element type OID, then the one
 * dimension's length and lower bound (1), then each element as its byte length and its bytes.
 */

/** Element type OIDs (pg_type). */
const OID = { text: 25, int4: 23, uuid: 2950, jsonb: 3802 } as const;

/** jsonb's binary format: a version byte (1), then the JSON text. */
const JSONB_VERSION = 1;

function binaryArray(oid: number, count: number, sizeOf: (i: number) => number, write: (i: number, out: Buffer, at: number) => void): Buffer {
  if (count === 0) {
    // An empty array has no dimension at all.
    const empty = Buffer.alloc(12);
    empty.writeUInt32BE(oid, 8);
    return empty;
  }
  let size = 20;
  for (let i = 0; i < count; i += 1) size += 4 + sizeOf(i);
  const out = Buffer.allocUnsafe(size);
  out.writeInt32BE(1, 0);
  out.writeInt32BE(0, 4);
  out.writeUInt32BE(oid, 8);
  out.writeInt32BE(count, 12);
  out.writeInt32BE(1, 16);
  let at = 20;
  for (let i = 0; i < count; i += 1) {
    const n = sizeOf(i);
    out.writeInt32BE(n, at);
    write(i, out, at + 4);
    at += 4 + n;
  }
  return out;
}

export function textArray(values: readonly string[]): Buffer {
  const bytes = values.map((v) => Buffer.byteLength(v));
  return binaryArray(OID.text, values.length, (i) => bytes[i]!, (i, out, at) => void out.write(values[i]!, at));
}

export function int4Array(values: readonly number[]): Buffer {
  return binaryArray(OID.int4, values.length, () => 4, (i, out, at) => void out.writeInt32BE(values[i]!, at));
}

/** UUIDs as text (any case, with hyphens), sent as their 16 bytes. */
export function uuidArray(values: readonly string[]): Buffer {
  return binaryArray(OID.uuid, values.length, () => 16, (i, out, at) => void out.write(values[i]!.replace(/-/g, ''), at, 16, 'hex'));
}

/** A JSON text as one jsonb element's bytes (built once, when an append is queued; see jsonbArray). */
export function jsonbElement(json: string): Buffer {
  const out = Buffer.allocUnsafe(1 + Buffer.byteLength(json));
  out[0] = JSONB_VERSION;
  out.write(json, 1);
  return out;
}

/** jsonb elements made by jsonbElement. */
export function jsonbArray(elements: readonly Buffer[]): Buffer {
  return binaryArray(OID.jsonb, elements.length, (i) => elements[i]!.length, (i, out, at) => void elements[i]!.copy(out, at));
}
