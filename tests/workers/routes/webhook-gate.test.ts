import { env, exports } from "cloudflare:workers";
import { loadSettings } from "@src/composition/settings/settings-loader";
import { resolveSettings } from "@src/domain/config/settings";
import { MAX_REPLAY_WINDOW_SECONDS } from "@src/domain/config/webhook-settings";
import { DEDUPE_RETENTION_MS } from "@src/durable-objects/inbox";
import { describe, it } from "vitest";
import { adminApi } from "../../support/admin-api";
import { signedOneBotRequest } from "../../support/onebot-signing";
import { app, now, oneBotPrivate, oneBotUrl, qqUrl, SELF } from "../../support/production-mode";
import { c2cBody, eventIdOf, messageRows, TEST_APP_ID, TEST_SECRET, turnDone } from "../../support/qq-events";
import { signedQqRequest } from "../../support/qq-signing";
import { eventually } from "../../support/wait";
import { webhookTraces } from "../../support/webhook-traces";

/** A D1 binding in an outage: every call fails, as D1 does when it is unreachable. */
const outage = new Proxy(
  {},
  {
    get() {
      return () => {
        throw new Error("D1_ERROR: storage unavailable");
      };
    },
  },
) as D1Database;
const inOutage = { ...env, DB: outage } as Env;

describe("with the settings store down", () => {
  it("really cannot load settings (the premise)", async ({ expect }) => {
    await expect(loadSettings(inOutage)).rejects.toThrow("D1_ERROR");
  });

  it("still answers op 13 and refuses bad signatures with 401, not 500", async ({ expect }) => {
    const body = '{"op":13,"d":{"plain_token":"X7cT2qLm9PzR4vNw8KdA","event_ts":"1735689600"}}';
    const signed = await signedQqRequest(qqUrl, body, { secret: TEST_SECRET, appId: TEST_APP_ID });
    const answer = await app.request(signed, undefined, inOutage);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ plain_token: "X7cT2qLm9PzR4vNw8KdA" });

    const forged = await signedQqRequest(qqUrl, body, { secret: "x".repeat(32), appId: TEST_APP_ID });
    const refused = await app.request(forged, undefined, inOutage);
    expect(refused.status).toBe(401);
    expect(await refused.text()).toBe("");

    const stale = await signedQqRequest(qqUrl, body, {
      secret: TEST_SECRET,
      appId: TEST_APP_ID,
      timestamp: String(now() - 3600),
    });
    expect((await app.request(stale, undefined, inOutage)).status).toBe(401);
  });

  it("hands a verified dispatch to its chat object", async ({ expect }) => {
    const user = `U${crypto.randomUUID().replaceAll("-", "")}`;
    const body = c2cBody({ user, text: "/ping" });
    const signed = await signedQqRequest(qqUrl, body, { secret: TEST_SECRET, appId: TEST_APP_ID });
    const res = await app.request(signed, undefined, inOutage);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ op: 12, d: 0 });
    const status = await turnDone(`qq:private:${user}`, eventIdOf(body));
    expect(status.replies).toEqual([{ text: "pong", state: "sent" }]);

    const oneBotUser = 30_000 + Math.floor(Math.random() * 10_000);
    const oneBot = await signedOneBotRequest(oneBotUrl, oneBotPrivate(oneBotUser, 1, now()));
    expect((await app.request(oneBot, undefined, inOutage)).status).toBe(204);
    // Both chats' rows reach the log, so later snapshots in this file are stable.
    for (const chat of [`qq:private:${user}`, `onebot:private:${oneBotUser}`]) {
      await eventually(async () => ((await messageRows(chat)).length === 2 ? true : undefined));
    }
  });
});

describe("OneBot freshness", () => {
  it.for([
    ["ten minutes and one second old", -601],
    ["ten minutes and one second ahead", 601],
    ["from the epoch", Number.NaN],
  ] as const)("refuses an event %s with 401 and an empty body", async ([, offset], { expect }) => {
    const before = await webhookTraces();
    const time = Number.isNaN(offset) ? 1 : now() + offset;
    const user = 40_000 + Math.floor(Math.random() * 10_000);
    const res = await exports.default.fetch(
      await signedOneBotRequest(oneBotUrl, oneBotPrivate(user, 7, time)),
    );
    expect(res.status).toBe(401);
    expect(await res.text()).toBe("");
    expect(await webhookTraces()).toEqual(before);
  });

  it("accepts an event inside the window and takes its replay as a duplicate", async ({ expect }) => {
    const user = 50_000 + Math.floor(Math.random() * 10_000);
    const body = oneBotPrivate(user, 8, now() - 500);
    expect((await exports.default.fetch(await signedOneBotRequest(oneBotUrl, body))).status).toBe(204);
    await turnDone(`onebot:private:${user}`, `onebot:${SELF}:msg:8`);
    expect((await exports.default.fetch(await signedOneBotRequest(oneBotUrl, body))).status).toBe(204);
    const rows = await eventually(async () => {
      const r = await messageRows(`onebot:private:${user}`);
      return r.length === 2 ? r : undefined;
    });
    expect(rows.map((r) => r.direction)).toEqual(["in", "out"]);
  });

  it("takes its window from webhook.oneBotMaxAgeSeconds in AKASHA_CONFIG", async ({ expect }) => {
    const wide = {
      ...env,
      AKASHA_CONFIG: JSON.stringify({ follow: { groups: ["*"] }, webhook: { oneBotMaxAgeSeconds: 3600 } }),
    } as Env;
    const narrow = {
      ...env,
      AKASHA_CONFIG: JSON.stringify({ follow: { groups: ["*"] }, webhook: { oneBotMaxAgeSeconds: 60 } }),
    } as Env;
    const user = 60_000 + Math.floor(Math.random() * 10_000);
    const old = await signedOneBotRequest(oneBotUrl, oneBotPrivate(user, 9, now() - 1000));
    expect((await app.request(old.clone(), undefined, narrow)).status).toBe(401);
    expect((await app.request(old, undefined, wide)).status).toBe(204);
  });

  it("keeps dedupe records longer than any window the settings admit", ({ expect }) => {
    expect(DEDUPE_RETENTION_MS).toBeGreaterThan(MAX_REPLAY_WINDOW_SECONDS * 1000);
    for (const key of ["maxSkewSeconds", "oneBotMaxAgeSeconds"]) {
      expect(resolveSettings({ webhook: { [key]: MAX_REPLAY_WINDOW_SECONDS } }).ok, key).toBe(true);
      expect(resolveSettings({ webhook: { [key]: MAX_REPLAY_WINDOW_SECONDS + 1 } }).ok, key).toBe(false);
    }
  });

  it("cannot have its window set by the stored settings layer", async ({ expect }) => {
    const res = await adminApi("/settings", {
      method: "PUT",
      body: { webhook: { oneBotMaxAgeSeconds: 43_200 } },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid", field: "webhook" });
  });
});
