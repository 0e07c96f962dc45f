/** Timestamps as the QQ platform writes them, in events and in OpenAPI responses. */

/**
 * Milliseconds since the epoch from a platform timestamp: an RFC 3339 string, or integer
 * seconds (number or digit string). Integers beyond 10^12 are taken as milliseconds already,
 * since seconds that large lie 30,000 years ahead. Null when unreadable.
 */
export function qqTimestampMs(value: string | number): number | null {
  if (typeof value === "number" || /^[0-9]+$/.test(value)) {
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0) return null;
    return n > 1e12 ? Math.round(n) : Math.round(n * 1000);
  }
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}
