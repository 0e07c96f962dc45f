/**
 * Credentials are never stored anywhere (docs/invariants.md#credentials-are-never-stored-in-memory):
 * after each path below is driven through the real webhooks, chat objects, tools, dreaming and
 * admin API, every D1 table (FTS shadow tables included, and each FTS index asked directly) and
 * every chat object's SQLite and key-value storage are read whole, and the secret — and its
 * distinctive pieces — must be in none of them.
 *
 * This file: credentials that arrive another way: the admin API, refused and failing events.
 *
 * Own file: it changes the stored settings (identity enabled with one admin, dreaming after
 * two turns), which every test of a file shares. Each test has secrets of its own, so one
 * path that leaks cannot make another test fail. The paths are tests/support/credential-paths.ts.
 */
import { env } from "cloudflare:workers";
import { chatObjectServices } from "@src/composition/chat-object/chat-object-services";
import { beforeAll, describe, it, vi } from "vitest";
import { ScriptedChatModel } from "../fakes/scripted-chat-model";
import { adminApi } from "../support/admin-api";
import { enableIdentityAndDreaming, postOneBot, randomId, sample, say } from "../support/credential-paths";
import { newMemory, seedMemory, uid } from "../support/memory";
import { atBot, SELF, text } from "../support/onebot-events";
import { c2cBody, postQq } from "../support/qq-events";
import { settled, storedAnywhere } from "../support/stored-anywhere";
import { eventually } from "../support/wait";

beforeAll(enableIdentityAndDreaming);

describe("a credential that reaches the system another way is stored nowhere", () => {
  it("an admin's memory edit through the API keeps none in memory", async ({ expect }) => {
    const chat = `qq:group:G${uid()}`;
    const [id] = await seedMemory([newMemory(`chat:${chat}`, "群里的 wifi 在前台问", { kind: "fact" })]);
    const res = await adminApi(`/memory/${id}`, {
      method: "PATCH",
      body: { text: `群里的 ${sample("coffee4all")}` },
    });
    // Refused or masked, the item exists and the edit went through the real route.
    expect([200, 400]).toContain(res.status);
    expect(await storedAnywhere(["coffee4all"])).toEqual([]);
  });

  it("refused, ignored and failing events leave none behind, in D1, the ops log or the chat object", {
    timeout: 60_000,
  }, async ({ expect }) => {
    const STRIPE = "sk_live_51HqZx2Ab3Cd4Ef5Gh6Ij7Kl8";
    const AKIA = "AKIAIOSFODNN7EXAMPLE";
    const ASIA = "ASIAY34FZKBOKMUTVV7A";
    const SLACK = "xoxp-1111-2222-3333-abcdef";
    const PAT = "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123";
    const time = Math.floor(Date.now() / 1000);

    // A OneBot friend request whose greeting holds a key: ignored.
    const request = JSON.stringify({
      time,
      self_id: SELF,
      post_type: "request",
      request_type: "friend",
      user_id: randomId(20_000),
      comment: `验证：${sample(STRIPE)}`,
      flag: "f1",
    });
    expect((await postOneBot(request)).status).toBe(204);
    // A malformed OneBot message (no group id) carrying a key: refused.
    const malformed = JSON.stringify({
      time,
      self_id: SELF,
      post_type: "message",
      message_type: "group",
      message_id: randomId(1),
      user_id: randomId(20_000),
      message: [atBot, text(` ${sample(AKIA)}`)],
      raw_message: sample(AKIA),
    });
    expect((await postOneBot(malformed)).status).toBe(400);
    // A QQ event type the bot does not handle, carrying a key: acknowledged, nothing kept.
    const interaction = JSON.stringify({
      op: 0,
      id: `INTERACTION_CREATE:${crypto.randomUUID()}`,
      t: "INTERACTION_CREATE",
      d: { id: crypto.randomUUID(), data: { resolved: { button_data: sample(ASIA) } } },
    });
    expect((await postQq(interaction)).status).toBe(200);
    // A QQ message signed with another secret: refused before anything is stored.
    const forged = c2cBody({ user: `UF${uid()}`, text: sample(SLACK) });
    expect((await postQq(forged, { secret: "not-the-bot-secret-000" })).status).toBe(401);

    // A model that fails, its error quoting the key back: the user gets the apology.
    const real = chatObjectServices.create.bind(chatObjectServices);
    const failing = new ScriptedChatModel(
      Array.from({ length: 5 }, () => ({
        error: { kind: "config" as const, message: `provider refused the request: ${PAT}` },
      })),
    );
    vi.spyOn(chatObjectServices, "create").mockImplementation((e) => ({ ...real(e), model: failing }));
    const user = `UE${uid()}`;
    const chatKey = `qq:private:${user}`;
    const status = await say(c2cBody({ user, text: `token 是 ${PAT}` }), chatKey);
    expect(status.replies[0]?.text).toBe("抱歉，我现在有点忙，稍后再试试吧。");
    await settled(chatKey);
    const usage = await eventually(async () => {
      const row = await env.DB.prepare("SELECT ok, error_kind FROM model_usage WHERE chat_key = ?")
        .bind(chatKey)
        .first<{ ok: number; error_kind: string }>();
      return row ?? undefined;
    }, 20_000);
    expect(usage).toEqual({ ok: 0, error_kind: "config" });

    expect(
      await storedAnywhere([
        STRIPE,
        "51HqZx2Ab3Cd4Ef5Gh6Ij7Kl8",
        AKIA,
        ASIA,
        SLACK,
        PAT,
        "11ABCDEFG0123456789",
      ]),
    ).toEqual([]);
  });
});
