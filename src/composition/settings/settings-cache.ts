/**
 * The isolate's copy of the resolved settings, so that a message does not cost a D1 read.
 *
 * - `current` answers from the copy while it is younger than `SETTINGS_TTL_MS`, otherwise
 *   reads D1 once (concurrent callers share the read). The alarm runs and admin paths use it.
 * - `peek` never reads D1 and never waits: the copy (however old), or defaults ⊕
 *   AKASHA_CONFIG when this isolate has none yet. The webhook path uses it, and only for
 *   timing (when the alarm should come), never for a decision about what to store.
 * - `invalidate()` drops the copy; every settings write in composition calls it. An isolate that
 *   did not see the write (another Worker isolate, a chat object elsewhere) catches up within
 *   the TTL: that is the bounded staleness.
 *
 * A failed D1 read serves the copy while it is at most `SETTINGS_MAX_STALE_MS` old; without one
 * the error propagates (the alarm is retried), so an unreadable store never silently replaces
 * stored settings by looser ones. Why the webhook path reads no D1:
 * docs/decisions/0007-webhook-path-reads-no-d1.md.
 */
import type { Settings } from "../../domain/config/settings";
import { akashaConfigText } from "../common/runtime-config";

/** How the cache reads: `load` is the D1 read, `fallback` the settings without D1. */
export type SettingsLoaders = { readonly load: () => Promise<Settings>; readonly fallback: () => Settings };

/** How long a copy is used without reading D1 again. */
export const SETTINGS_TTL_MS = 10_000;
/** How long a copy may stand in for a D1 that cannot be read. */
export const SETTINGS_MAX_STALE_MS = 5 * 60_000;

type Entry = { readonly settings: Settings; readonly loadedAt: number; readonly varText: string };

let entry: Entry | null = null;
let loading: { readonly promise: Promise<Settings>; readonly generation: number } | null = null;
/** Bumped by `invalidate`, so that a read started before a write does not store its old answer. */
let generation = 0;

/** The copy, if it was built from this env's AKASHA_CONFIG. */
function usable(env: Env): Entry | null {
  return entry && entry.varText === akashaConfigText(env) ? entry : null;
}

export const settingsCache = {
  async current(env: Env, loaders: SettingsLoaders, now: number = Date.now()): Promise<Settings> {
    const held = usable(env);
    if (held && now - held.loadedAt < SETTINGS_TTL_MS) return held.settings;
    if (!loading || loading.generation !== generation) {
      const started = generation;
      const promise = loaders.load().then(
        (settings) => {
          if (started === generation)
            entry = { settings, loadedAt: Date.now(), varText: akashaConfigText(env) };
          return settings;
        },
        (e: unknown) => {
          const stale = usable(env);
          if (stale && Date.now() - stale.loadedAt < SETTINGS_MAX_STALE_MS) {
            console.error(
              JSON.stringify({ msg: "settings read failed; cached copy used", error: String(e) }),
            );
            return stale.settings;
          }
          throw e;
        },
      );
      const own = { promise, generation: started };
      loading = own;
      void promise
        .finally(() => {
          if (loading === own) loading = null;
        })
        .catch(() => {});
    }
    return loading.promise;
  },

  peek(env: Env, loaders: SettingsLoaders): Settings {
    return usable(env)?.settings ?? loaders.fallback();
  },

  invalidate(): void {
    generation++;
    entry = null;
    loading = null;
  },
};
