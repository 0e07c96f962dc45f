/**
 * Where a request or a chat object's alarm run gets its settings. One read per run: every
 * step of the run sees the same settings, and a run does not read D1 again per step.
 */
import type { Settings } from "./settings";

export interface SettingsSource {
  /** The settings in force: read on the first call, then the same value until `invalidate`. */
  current(): Promise<Settings>;
  /** Forgets the value read, so the next `current()` reads again (after the settings were saved). */
  invalidate(): void;
}

/** A SettingsSource over one read function: remembers its answer until invalidated. */
export function memoizedSettings(read: () => Promise<Settings>): SettingsSource {
  let pending: Promise<Settings> | null = null;
  return {
    current() {
      // A failed read is not remembered: the next call tries again.
      pending ??= read().catch((e: unknown) => {
        pending = null;
        throw e;
      });
      return pending;
    },
    invalidate() {
      pending = null;
    },
  };
}
