/**
 * Loads the behaviour settings (defaults ⊕ AKASHA_CONFIG ⊕ D1 `settings`) with a short
 * per-isolate cache, so the webhook path and every chat object do not read D1 each time.
 */
import { openDatabase } from "../adapters/d1/database";
import { D1SettingsStore } from "../adapters/d1/settings-store";
import {
  parseSettingsLayer,
  resolveSettings,
  type Settings,
  type SettingsError,
} from "../domain/config/settings";
import type { SettingsAdmin } from "../domain/config/settings-admin";
import type { SettingsDocument, SettingsLayers } from "../domain/config/settings-edit";
import { ok, type Result } from "../domain/shared/result";
import { ConfigError } from "./runtime-config";

const MAX_AGE_MS = 10_000;
let cached: { at: number; varText: string; settings: Settings } | null = null;

export async function loadSettings(env: Env, now = Date.now()): Promise<Settings> {
  const varText = varLayerText(env);
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

const varLayerText = (env: Env): string => (typeof env.AKASHA_CONFIG === "string" ? env.AKASHA_CONFIG : "");

/**
 * Both configurable layers, read past the cache. An AKASHA_CONFIG that is not a JSON object
 * is a misconfigured deployment (ConfigError, as in `loadSettings`); a stored text that is not
 * one is an error naming `settings`, so that callers can report it and replace it.
 */
export async function readSettingsLayers(env: Env): Promise<{
  var: SettingsDocument;
  stored: Result<SettingsDocument | null, SettingsError>;
  storedText: string | null;
}> {
  const fromVar = parseSettingsLayer(varLayerText(env), "AKASHA_CONFIG");
  if (!fromVar.ok) throw new ConfigError(`AKASHA_CONFIG ${fromVar.error.reason}`);
  const text = await new D1SettingsStore(openDatabase(env.DB)).read();
  const stored = text === null ? ok(null) : parseSettingsLayer(text, "settings");
  return {
    var: fromVar.value as SettingsDocument,
    stored: stored as Result<SettingsDocument | null, SettingsError>,
    storedText: text,
  };
}

/** The stored layer as admin tools change it: saved to D1, then this isolate's cache dropped. */
export function d1SettingsAdmin(env: Env, now: () => number = Date.now): SettingsAdmin {
  return {
    async layers(): Promise<Result<SettingsLayers, SettingsError>> {
      const read = await readSettingsLayers(env);
      return read.stored.ok
        ? ok({ var: read.var, stored: read.stored.value, revision: read.storedText })
        : read.stored;
    },
    async save(stored, by, revision) {
      const store = new D1SettingsStore(openDatabase(env.DB));
      const saved = await store.writeIfUnchanged(JSON.stringify(stored), revision, by, now());
      if (saved) forgetCachedSettings();
      return saved;
    },
  };
}
