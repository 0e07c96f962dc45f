/**
 * Loads the behaviour settings (defaults ⊕ AKASHA_CONFIG ⊕ D1 `settings`). A request reads them
 * once through its own `settingsSource`; chat objects and the webhook path go through the
 * isolate's cache (`cachedSettingsSource`, `peekSettings`, settings-cache.ts). The one write
 * path (d1-settings-admin.ts) invalidates that cache, and the source it was given.
 */
import { openDatabase } from "../../adapters/d1/database";
import { D1SettingsStore } from "../../adapters/d1/settings-store";
import {
  parseSettingsLayer,
  resolveSettings,
  type Settings,
  type SettingsError,
} from "../../domain/config/settings";
import type { SettingsDocument } from "../../domain/config/settings-edit";
import { liftRenamedSettings } from "../../domain/config/settings-renames";
import { memoizedSettings, type SettingsSource } from "../../domain/config/settings-source";
import { ok, type Result } from "../../domain/kernel/result";
import { akashaConfigText, ConfigError } from "../common/runtime-config";
import { settingsCache } from "./settings-cache";

/** One read of both layers, resolved. A broken AKASHA_CONFIG is a ConfigError. */
export async function loadSettings(env: Env): Promise<Settings> {
  const fromVar = varLayer(env);
  const stored = readLayer(await new D1SettingsStore(openDatabase(env.DB)).read(), "settings");
  // A stored layer is validated before it is saved; if one is broken anyway, it is ignored
  // as a whole (never half-applied) and the var layer stands.
  const withStored = stored.ok ? resolveSettings(fromVar, stored.value) : null;
  if (withStored?.ok) return withStored.value;
  if (withStored) {
    console.error(JSON.stringify({ msg: "stored settings invalid; ignored", field: withStored.error.field }));
  }
  return varSettings(env);
}

/** The AKASHA_CONFIG layer, parsed; a text that is not a JSON object is a ConfigError. */
function varLayer(env: Env): unknown {
  const layer = readLayer(akashaConfigText(env), "AKASHA_CONFIG");
  if (!layer.ok) throw new ConfigError(`AKASHA_CONFIG ${layer.error.reason}`);
  return layer.value;
}

/** Defaults ⊕ AKASHA_CONFIG, without reading D1: what holds when the stored layer cannot. */
export function varSettings(env: Env): Settings {
  const resolved = resolveSettings(varLayer(env));
  if (!resolved.ok) throw new ConfigError(`AKASHA_CONFIG: ${resolved.error.field} ${resolved.error.reason}`);
  return resolved.value;
}

/** The settings of one request or alarm run: read once, again only after `invalidate`. */
export function settingsSource(env: Env): SettingsSource {
  return memoizedSettings(() => loadSettings(env));
}

/**
 * The settings through the isolate's cache: D1 is read at most once per TTL, and a save
 * through any store of this module is seen at once in this isolate. `invalidate` drops the
 * cached copy (a save through this run's settings admin).
 */
export function cachedSettingsSource(env: Env): SettingsSource {
  const loaders = { load: () => loadSettings(env), fallback: () => varSettings(env) };
  return {
    current: () => settingsCache.current(env, loaders),
    invalidate: () => settingsCache.invalidate(),
  };
}

/**
 * The cached settings without reading D1 or waiting: defaults ⊕ AKASHA_CONFIG until this
 * isolate has read the stored layer. For timing only (when an alarm should come).
 */
export function peekSettings(env: Env): Settings {
  return settingsCache.peek(env, { load: () => loadSettings(env), fallback: () => varSettings(env) });
}

/** One layer as written, renamed keys read under their new names (settings-renames.ts). */
function readLayer(text: string | null, source: string): Result<unknown, SettingsError> {
  const layer = parseSettingsLayer(text, source);
  return layer.ok ? ok(liftRenamedSettings(layer.value)) : layer;
}

/**
 * Both configurable layers, read directly. An AKASHA_CONFIG that is not a JSON object
 * is a misconfigured deployment (ConfigError, as in `loadSettings`); a stored text that is not
 * one is an error naming `settings`, so that callers can report it and replace it.
 */
export async function readSettingsLayers(env: Env): Promise<{
  var: SettingsDocument;
  stored: Result<SettingsDocument | null, SettingsError>;
  storedText: string | null;
}> {
  const fromVar = readLayer(akashaConfigText(env), "AKASHA_CONFIG");
  if (!fromVar.ok) throw new ConfigError(`AKASHA_CONFIG ${fromVar.error.reason}`);
  const text = await new D1SettingsStore(openDatabase(env.DB)).read();
  const stored = text === null ? ok(null) : readLayer(text, "settings");
  return {
    var: fromVar.value as SettingsDocument,
    stored: stored as Result<SettingsDocument | null, SettingsError>,
    storedText: text,
  };
}
