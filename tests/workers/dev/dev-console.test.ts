import { env } from "cloudflare:workers";
import { it } from "vitest";
import { devPost } from "../../support/dev-routes";

const post = (body: unknown, bindings: Env = env) => devPost("/dev/message", body, bindings);

it("signs a simulated group message, sends it through the webhook and returns the replies", async ({
  expect,
}) => {
  const res = await post({
    chat: `qq:group:DEV${crypto.randomUUID().slice(0, 8)}`,
    sender: "U1",
    text: "/ping",
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ state: "done", replies: ["pong"] });
});

it("works for private chats and OneBot chats", async ({ expect }) => {
  const privateRes = await post({ chat: "qq:private:DEVUSER1", text: "/ping" });
  expect(await privateRes.json()).toMatchObject({ chat: "qq:private:DEVUSER1", replies: ["pong"] });
  const oneBot = await post({ chat: "onebot:group:123456", sender: "20002", text: "/ping" });
  expect(await oneBot.json()).toMatchObject({ chat: "onebot:group:123456", replies: ["pong"] });
});

it.for([
  [{ chat: "nonsense", text: "hi" }, "chat"],
  [{ chat: "qq:channel:1", text: "hi" }, "chat"],
  [{ chat: "qq:group:G1", text: "" }, "text"],
  [{ chat: "qq:group:G1", text: "hi", extra: 1 }, "(body)"],
] as const)("refuses %j with a clear error", async ([body, field], { expect }) => {
  const res = await post(body);
  expect(res.status).toBe(400);
  expect(await res.json()).toMatchObject({ error: "invalid", field });
});

it("does not exist outside local mode", async ({ expect }) => {
  const res = await post({ chat: "qq:group:G1", text: "hi" }, { ...env, AKASHA_ENV: "production" });
  expect(res.status).toBe(404);
});
