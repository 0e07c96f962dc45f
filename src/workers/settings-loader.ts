/**
 * Loads the behaviour settings (defaults ⊕ AKASHA_CONFIG ⊕ D1 `settings`) with a short
 * per-isolate cache, so the webhook path and every chat object do not read D1 each time.
 */
import { openDatabase } from "../adapters/d1/database";
import { D1SettingsStore } from "../adapters/d1/settings-store";
import { parseSettingsLayer, resolveSettings, type Settings } from "../domain/config/settings";
import { ConfigError } from "./runtime-config";

const MAX_AGE_MS = 10_000;
let cached: { at: number; varText: string; settings: Settings } | null = null;

export async function loadSettings(env: Env, now = Date.now()): Promise<Settings> {
  const varText = typeof env.AKASHA_CONFIG === "string" ? env.AKASHA_CONFIG : "";
  if (cached && cached.varText === varText && now - cached.at < MAX_AGE_MS) return cached.settings;
  const fromVar = parseSettingsLayer(varText, "AKASHA_CONFIG");
  if (!fromVar.ok) throw new ConfigError(`AKASHA_CONFIG ${fromVar.error.reason}`);
  const stored = parseSettingsLayer(await new D1SettingsStore(openDatabase(env.DB)).read(), "settings");
  // A stored layer is validated before it is saved; if one is broken anyway, it is ignored
  // as a whole (never half-applied) and the var layer stands.
  const withStored = stored.ok ? resolveSettings(fromVar.value, stored.value) : null;
  const resolved = withStored?.ok ? withStored : resolveSettings(fromVar.value);
  if (!resolved.ok) throw new ConfigError(`AKASHA_CONFIG: ${resolved.error.field} ${resolved.error.reason}`);
  if (withStored && !withStored.ok) {
    console.error(JSON.stringify({ msg: "stored settings invalid; ignored", field: withStored.error.field }));
  }
  cached = { at: now, varText, settings: resolved.value };
  return resolved.value;
}

/** Drops the cache (after the admin API saved new settings, and in tests). */
export function forgetCachedSettings(): void {
  cached = null;
}
