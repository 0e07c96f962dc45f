/** Settings resolved from a layer over the defaults, as the worker resolves the stored layer. */
import { resolveSettings, type Settings } from "../../src/domain/config/settings";

/** The layer over the defaults; a layer the resolver refuses throws, naming the field. */
export function resolvedSettings(layer: unknown): Settings {
  const r = resolveSettings(layer);
  if (!r.ok) throw new Error(`${r.error.field} ${r.error.reason}`);
  return r.value;
}
