// The isolate's settings cache: D1 at most once per TTL, a save seen at once, another
// isolate's save within the TTL, and never looser settings when D1 cannot be read.
import { env } from "cloudflare:workers";
import {
  SETTINGS_MAX_STALE_MS,
  SETTINGS_TTL_MS,
  settingsCache,
} from "@src/composition/settings/settings-cache";
import { cachedSettingsSource, peekSettings, varSettings } from "@src/composition/settings/settings-loader";
import type { Settings } from "@src/domain/config/settings";
import { beforeEach, describe, it } from "vitest";
import { resolvedSettings } from "../../fakes/resolved-settings";
import { storedSettings } from "../../support/stored-settings";

const settingsWith = (groups: string[]): Settings => resolvedSettings({ follow: { groups } });

/** Loaders that count D1 reads and answer what `answer` holds. */
function counting(answer: { next: Settings | Error }) {
  const calls = { load: 0 };
  return {
    calls,
    loaders: {
      load: async () => {
        calls.load++;
        if (answer.next instanceof Error) throw answer.next;
        return answer.next;
      },
      fallback: () => settingsWith([]),
    },
  };
}

beforeEach(async () => {
  settingsCache.invalidate();
  await env.DB.prepare("DELETE FROM settings").run();
});

describe("settingsCache", () => {
  it("reads once per TTL, shares a read in flight, and reads again after invalidate", async ({ expect }) => {
    const answer = { next: settingsWith(["qq:group:A"]) as Settings | Error };
    const { calls, loaders } = counting(answer);
    const [a, b] = await Promise.all([
      settingsCache.current(env, loaders, 0),
      settingsCache.current(env, loaders, 0),
    ]);
    expect(calls.load).toBe(1);
    expect(a).toBe(b);
    const now = Date.now();
    await settingsCache.current(env, loaders, now + SETTINGS_TTL_MS - 1000);
    expect(calls.load).toBe(1);
    answer.next = settingsWith(["qq:group:B"]);
    // Past the TTL: the bounded staleness ends with a new read.
    expect((await settingsCache.current(env, loaders, now + SETTINGS_TTL_MS + 1000)).follow.groups).toEqual([
      "qq:group:B",
    ]);
    expect(calls.load).toBe(2);
    settingsCache.invalidate();
    answer.next = settingsWith(["qq:group:C"]);
    expect((await settingsCache.current(env, loaders)).follow.groups).toEqual(["qq:group:C"]);
    expect(calls.load).toBe(3);
  });

  it("serves a recent copy when D1 fails, and fails without one rather than loosen anything", async ({
    expect,
  }) => {
    const answer = { next: new Error("D1 unavailable") as Settings | Error };
    const { loaders } = counting(answer);
    await expect(settingsCache.current(env, loaders)).rejects.toThrow("D1 unavailable");
    answer.next = settingsWith(["qq:group:KEPT"]);
    await settingsCache.current(env, loaders);
    answer.next = new Error("D1 unavailable");
    const later = Date.now() + SETTINGS_TTL_MS + 1;
    expect((await settingsCache.current(env, loaders, later)).follow.groups).toEqual(["qq:group:KEPT"]);
    expect(SETTINGS_MAX_STALE_MS).toBeGreaterThan(SETTINGS_TTL_MS);
  });

  it("peek never reads D1: defaults ⊕ AKASHA_CONFIG until a copy exists, then the copy", async ({
    expect,
  }) => {
    const answer = { next: settingsWith(["qq:group:PEEK"]) as Settings | Error };
    const { calls, loaders } = counting(answer);
    expect(settingsCache.peek(env, loaders).follow.groups).toEqual([]);
    expect(calls.load).toBe(0);
    await settingsCache.current(env, loaders);
    expect(settingsCache.peek(env, loaders).follow.groups).toEqual(["qq:group:PEEK"]);
  });
});

describe("cachedSettingsSource over D1", () => {
  it("sees a save through the settings store at once, and a save it did not make once the copy goes", async ({
    expect,
  }) => {
    const source = cachedSettingsSource(env);
    // Nothing stored: defaults ⊕ AKASHA_CONFIG (local mode's dev defaults here).
    expect(await source.current()).toEqual(varSettings(env));
    await storedSettings(env).write(JSON.stringify({ follow: { groups: ["qq:group:SAVED"] } }), "test", 1);
    expect((await source.current()).follow.groups).toEqual(["qq:group:SAVED"]);
    expect(peekSettings(env).follow.groups).toEqual(["qq:group:SAVED"]);
    // A write this isolate did not make (another isolate's admin API): the copy stands.
    await env.DB.prepare("UPDATE settings SET value = ? WHERE key = 'config'")
      .bind(JSON.stringify({ follow: { groups: ["qq:group:ELSEWHERE"] } }))
      .run();
    expect((await source.current()).follow.groups).toEqual(["qq:group:SAVED"]);
    // Once the copy goes (the TTL, as above, or an invalidate), the stored layer is read again.
    source.invalidate();
    expect((await source.current()).follow.groups).toEqual(["qq:group:ELSEWHERE"]);
  });
});
