/**
 * The stored settings layer over D1, as the one write path (domain/config/settings-admin.ts)
 * reads and saves it. Every save drops the isolate's cached settings (settings-cache.ts).
 */
import { openDatabase } from "../../adapters/d1/database";
import { D1SettingsStore } from "../../adapters/d1/settings-store";
import type { SettingsError } from "../../domain/config/settings";
import type { SettingsAdmin } from "../../domain/config/settings-admin";
import type { SettingsLayers } from "../../domain/config/settings-edit";
import type { SettingsSource } from "../../domain/config/settings-source";
import { ok, type Result } from "../../domain/kernel/result";
import { settingsCache } from "./settings-cache";
import { readSettingsLayers } from "./settings-loader";

/** A settings store whose every save drops the isolate's cached settings. */
class InvalidatingSettingsStore extends D1SettingsStore {
  override async save(...args: Parameters<D1SettingsStore["save"]>): Promise<boolean> {
    try {
      return await super.save(...args);
    } finally {
      settingsCache.invalidate();
    }
  }
}

/**
 * The stored layer through the one write path (domain/config/settings-admin.ts): saved to D1
 * with its audit row, then `source` (the settings of the run that saved) invalidated, so the
 * rest of that run sees the new settings.
 */
export function d1SettingsAdmin(
  env: Env,
  source: Pick<SettingsSource, "invalidate"> | null = null,
): SettingsAdmin {
  return {
    async layers(): Promise<Result<SettingsLayers, SettingsError>> {
      const read = await readSettingsLayers(env);
      return read.stored.ok
        ? ok({ var: read.var, stored: read.stored.value, revision: read.storedText })
        : read.stored;
    },
    async save({ stored, revision, audit }) {
      const store = new InvalidatingSettingsStore(openDatabase(env.DB));
      const dedupeKey = `${audit.action}:${audit.at}:${crypto.randomUUID()}`;
      const saved = await store.save(JSON.stringify(stored), revision, { ...audit, dedupeKey });
      if (saved) source?.invalidate();
      return saved;
    },
  };
}
