import { env } from "cloudflare:workers";
import { it } from "vitest";
import { devPost } from "../../support/dev-routes";

const post = (path: string, body: unknown, bindings: Env = env) =>
  devPost(`/dev/bench/chatlog${path}`, body, bindings);
const json = async <T>(res: Response): Promise<T> => {
  if (res.status !== 200) throw new Error(`${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
};

type ReadAnswer = {
  hits: number;
  unread: number;
  d1: { statements: number; roundTrips: number; rowsRead: number };
  doRowsRead: number;
};

it("does not exist outside local mode", async ({ expect }) => {
  const production = { ...env, AKASHA_ENV: "production" };
  for (const [path, body] of [
    ["/seed", { chat: 0, chats: 1, offset: 0, n: 1 }],
    ["/sizes", { chats: ["qq:group:CLB0"] }],
    ["/read", { reader: "qq:group:CLB0", mode: "none", chats: ["qq:group:CLB0"], text: "火锅" }],
  ] as const)
    expect((await post(path, body, production)).status).toBe(404);
});

it("seeds the same messages into the chats' objects and D1, once", async ({ expect }) => {
  const empty = await json<{ objects: number[]; d1: number }>(
    await post("/sizes", { chats: ["qq:group:CLB900"] }),
  );
  const seeded = await json<{ added: number }>(await post("/seed", { chat: 900, chats: 2, offset: 0, n: 6 }));
  expect(seeded.added).toBe(12);
  const again = await json<{ added: number; skipped: number }>(
    await post("/seed", { chat: 900, chats: 2, offset: 0, n: 6 }),
  );
  expect(again).toMatchObject({ added: 0, skipped: 12 });
  const rows = await env.DB.prepare(
    "SELECT chat_key, count(*) AS n FROM messages WHERE chat_key IN ('qq:group:CLB900', 'qq:group:CLB901') GROUP BY chat_key ORDER BY chat_key",
  ).all<{ chat_key: string; n: number }>();
  expect(rows.results).toEqual([
    { chat_key: "qq:group:CLB900", n: 6 },
    { chat_key: "qq:group:CLB901", n: 6 },
  ]);
  const after = await json<{ objects: number[]; d1: number }>(
    await post("/sizes", { chats: ["qq:group:CLB900", "qq:group:CLB901"] }),
  );
  expect(after.objects).toHaveLength(2);
  for (const bytes of after.objects) expect(bytes).toBeGreaterThan(empty.objects[0] ?? 0);
});

it("reads a chat's log in its object with no D1 statement, and the same search from D1", async ({
  expect,
}) => {
  await json(await post("/seed", { chat: 910, chats: 3, offset: 0, n: 30 }));
  const read = async (mode: string, chats: string[]) =>
    json<ReadAnswer>(
      await post("/read", { reader: "qq:group:CLB910", mode, chats, text: "火锅 周末", limit: 5 }),
    );
  const own = await read("object", ["qq:group:CLB910"]);
  expect(own.hits).toBeGreaterThan(0);
  expect(own.d1.statements).toBe(0);
  expect(own.doRowsRead).toBeGreaterThan(0);
  const other = await read("object", ["qq:group:CLB911"]);
  expect(other.hits).toBeGreaterThan(0);
  expect(other.d1.statements).toBe(0);
  const across = await read("object", ["qq:group:CLB910", "qq:group:CLB911", "qq:group:CLB912"]);
  expect(across).toMatchObject({ unread: 0 });
  expect(across.hits).toBeGreaterThan(0);
  const fromD1 = await read("d1", ["qq:group:CLB910"]);
  expect(fromD1.hits).toBeGreaterThan(0);
  expect(fromD1.d1.statements).toBeGreaterThan(0);
  expect(await read("none", ["qq:group:CLB910"])).toMatchObject({ hits: 0, d1: { statements: 0 } });
});

it("refuses a chat that is not a QQ group and more than 20,000 messages at once", async ({ expect }) => {
  expect((await post("/read", { reader: "bench:group:g1", mode: "none", chats: [], text: "x" })).status).toBe(
    400,
  );
  expect((await post("/seed", { chat: 0, chats: 100, offset: 0, n: 1000 })).status).toBe(400);
});
