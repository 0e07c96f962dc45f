/**
 * Settings keys that were renamed, read under their new names. `spend.timeZone` and
 * `summaries.timeZone` became the one `calendar.timeZone`; a stored layer or AKASHA_CONFIG
 * written before that would otherwise fail validation as a whole and be ignored (the stored
 * layer) or stop the Worker (the var), losing every other setting it holds. New writes must use
 * the new name: the settings API validates what it is given, not this reading.
 */
type Layer = Record<string, unknown>;

const isObject = (value: unknown): value is Layer =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The sections whose `timeZone` moved to `calendar.timeZone`, in the order they win. */
const MOVED_TIME_ZONES = ["spend", "summaries"] as const;

/** A copy of `layer` with renamed keys under their new names; a new name already set wins. */
export function liftRenamedSettings(layer: unknown): unknown {
  if (!isObject(layer)) return layer;
  const out: Layer = { ...layer };
  let zone: unknown;
  for (const section of MOVED_TIME_ZONES) {
    const value = out[section];
    if (!isObject(value) || !("timeZone" in value)) continue;
    const { timeZone, ...rest } = value;
    zone ??= timeZone;
    out[section] = rest;
  }
  if (zone === undefined) return out;
  const calendar = isObject(out.calendar) ? out.calendar : {};
  out.calendar = "timeZone" in calendar ? calendar : { ...calendar, timeZone: zone };
  return out;
}
