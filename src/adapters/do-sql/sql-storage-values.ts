/**
 * Values crossing the D1 API over a Durable Object's SQLite, converted as D1 converts them, so
 * that a D1 adapter binds and reads the same things over either. The object's `exec` would bind
 * `true` as the text 'true' and `undefined` as NULL, and returns BLOBs as ArrayBuffers; D1
 * binds booleans as 1/0, refuses `undefined`, and returns BLOBs as arrays of bytes.
 */

/** The message D1 gives for a value it cannot bind (prefix included: callers may match it). */
function typeError(value: unknown): Error {
  const message = `Type '${typeof value}' not supported for value '${describe(value)}'`;
  return new Error(`D1_TYPE_ERROR: ${message}`, { cause: new Error(message) });
}

/** String(value), which a Symbol or a null-prototype object would make throw. */
function describe(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

const isByteArray = (value: unknown[]): boolean =>
  value.every((b) => typeof b === "number" && b >= 0 && b < 256);

/**
 * One bound value as the object's SQLite takes it. Throws D1's `D1_TYPE_ERROR` for what D1
 * refuses (undefined, bigint, objects that are not bytes), synchronously like D1's `bind`.
 */
export function toSqlStorageValue(value: unknown): SqlStorageValue {
  if (typeof value === "string" || typeof value === "number" || value === null) return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof ArrayBuffer) return value;
  // A view is copied out of its buffer: only its own bytes are the BLOB, as in D1.
  if (ArrayBuffer.isView(value)) {
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength).slice().buffer;
  }
  if (Array.isArray(value) && isByteArray(value)) return new Uint8Array(value).buffer;
  throw typeError(value);
}

/** One result cell as D1 returns it: a BLOB as an array of its bytes, anything else as is. */
export function toD1Value(cell: SqlStorageValue): unknown {
  return cell instanceof ArrayBuffer ? Array.from(new Uint8Array(cell)) : cell;
}
