// A chat object's probe exists in local mode only: every other mode value, missing and unknown
// ones included, gives the object none, and its HTTP entry then answers 404 to everything.
import { env } from "cloudflare:workers";
import { chatProbe, type ProbedChat } from "@src/composition/dev/chat-probe";
import { chatProbeClient } from "@src/composition/dev/chat-probe-client";
import type { ChatKey } from "@src/domain/chat/chat-address";
import { describe, it } from "vitest";
import { eventIdOf, groupAtBody, postQq, turnDone } from "../../support/qq-events";

describe("the chat object's local probe", () => {
  it.for(["production", "", "Local", "LOCAL", " local", "dev", "test", undefined])(
    "is not built for AKASHA_ENV %j",
    (mode, { expect }) => {
      expect(chatProbe({ ...env, AKASHA_ENV: mode } as Env)).toBeNull();
    },
  );

  it("answers 404 to what it does not serve", async ({ expect }) => {
    const probe = chatProbe(env);
    const chat: ProbedChat = {
      sql: {} as SqlStorage,
      recent: () => [],
      shortTermContext: {} as never,
      model: (m) => m,
      history: () => ({}) as never,
    };
    expect((await probe?.serve(new Request("https://p/anything"), chat))?.status).toBe(404);
    expect((await probe?.serve(new Request("https://p/work", { method: "POST" }), chat))?.status).toBe(404);
  });

  it("counts what a chat object does for its messages: statements and alarm runs", async ({ expect }) => {
    const group = `G${crypto.randomUUID().replaceAll("-", "")}`;
    const body = groupAtBody({ group, member: "M1", text: "/ping" });
    expect((await postQq(body)).status).toBe(200);
    await turnDone(`qq:group:${group}`, eventIdOf(body));
    const work = await chatProbeClient(env, `qq:group:${group}` as ChatKey).work();
    expect(work.statements).toBeGreaterThan(0);
    expect(work.alarms).toBeGreaterThan(0);
  });
});
