/**
 * The stored settings row as tests seed and read it: written directly (a layer the API would
 * refuse included, to test how readers treat it), and the isolate's settings cache dropped
 * as every product write drops it.
 */

import { settingsCache } from "@src/composition/settings/settings-cache";
import { afterAll, beforeAll } from "vitest";

export function storedSettings(env: Env) {
  return {
    async read(): Promise<string | null> {
      const row = await env.DB.prepare("SELECT value FROM settings WHERE key = 'config'").first<{
        value: string;
      }>();
      return row?.value ?? null;
    },
    /** The row's value and who wrote it last (null when nobody named did, or no row). */
    row() {
      return env.DB.prepare("SELECT value, updated_by AS by FROM settings WHERE key = 'config'").first<{
        value: string;
        by: string | null;
      }>();
    },
    async write(value: string, by: string | null, at: number): Promise<void> {
      try {
        await env.DB.prepare(
          `INSERT INTO settings (key, value, updated_at, updated_by) VALUES ('config', ?1, ?2, ?3)
           ON CONFLICT (key) DO UPDATE SET value = ?1, updated_at = ?2, updated_by = ?3`,
        )
          .bind(value, at, by)
          .run();
      } finally {
        settingsCache.invalidate();
      }
    },
  };
}

/** Stores `settings` as the row a test runs under, written by "test" now. */
export function storeSettings(env: Env, settings: Record<string, unknown>): Promise<void> {
  return storedSettings(env).write(JSON.stringify(settings), "test", Date.now());
}

/** Runs the file's tests under `settings`: stored before the first test, the row deleted after the last. */
export function underStoredSettings(env: Env, settings: Record<string, unknown>): void {
  beforeAll(() => storeSettings(env, settings));
  afterAll(async () => {
    await env.DB.prepare("DELETE FROM settings WHERE key = 'config'").run();
    settingsCache.invalidate();
  });
}
