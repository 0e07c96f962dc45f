// Own file: it changes the stored settings, which every test of a file shares.
import { env } from "cloudflare:workers";
import { beforeAll, it } from "vitest";
import { c2cBody, eventIdOf, groupAtBody, messageRows, postQq, turnDone } from "../support/qq-events";
import { storeSettings } from "../support/stored-settings";
import { eventually } from "../support/wait";

beforeAll(async () => {
  await storeSettings(env, { follow: { groups: ["qq:group:FOLLOWED"] } });
});

it("never stores an unfollowed group's messages, though it replies and registers the chat", async ({
  expect,
}) => {
  const body = groupAtBody({ group: "UNFOLLOWED", member: "M1", text: "/ping" });
  expect((await postQq(body)).status).toBe(200);
  const status = await turnDone("qq:group:UNFOLLOWED", eventIdOf(body));
  expect(status.replies).toEqual([{ text: "pong", state: "sent" }]);
  const chat = await eventually(
    async () =>
      (await env.DB.prepare("SELECT followed FROM chats WHERE chat_key = 'qq:group:UNFOLLOWED'").first<{
        followed: number;
      }>()) ?? undefined,
  );
  expect(chat.followed).toBe(0);
  expect(await env.CHAT_SESSION.getByName("qq:group:UNFOLLOWED").stats()).toMatchObject({ unflushed: 0 });
  expect(await messageRows("qq:group:UNFOLLOWED")).toEqual([]);
});

it("stores a followed group and every private chat", async ({ expect }) => {
  const group = groupAtBody({ group: "FOLLOWED", member: "M1", text: "/ping" });
  const priv = c2cBody({ user: "PRIVATEUSER", text: "/ping" });
  await postQq(group);
  await postQq(priv);
  await turnDone("qq:group:FOLLOWED", eventIdOf(group));
  await turnDone("qq:private:PRIVATEUSER", eventIdOf(priv));
  const groupRows = await eventually(async () => {
    const rows = await messageRows("qq:group:FOLLOWED");
    return rows.length === 2 ? rows : undefined;
  });
  const privateRows = await eventually(async () => {
    const rows = await messageRows("qq:private:PRIVATEUSER");
    return rows.length === 2 ? rows : undefined;
  });
  expect(groupRows.map((r) => r.direction)).toEqual(["in", "out"]);
  expect(privateRows.map((r) => r.direction)).toEqual(["in", "out"]);
});
