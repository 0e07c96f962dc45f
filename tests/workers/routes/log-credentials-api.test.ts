// POST /api/log-credentials/step: every message log read again by today's detectors
// (docs/decisions/0990-logs-kept-before-a-detector-read-them.md). Rows are written as they were
// before a detector read their wording — into a chat object's own log and into D1's, unmasked —
// and the sweep is driven step by step through the admin API, as the CLI does.
// Own file: it counts every log row and audit row, which every test of a file shares.
import { env } from "cloudflare:workers";
import { describe, it } from "vitest";
import { adminApi, auditCount, withoutAdmin } from "../../support/admin-api";
import { logInD1, logInObject } from "../../support/log-rows";
import { loggedBefore } from "../../support/logged-before";
import { uid } from "../../support/memory";
import { registerChat } from "../../support/sessions";
import { storedAnywhere } from "../../support/stored-anywhere";

type Step = {
  done: boolean;
  cursor: string | null;
  progress: { stage: string; chatsBefore: number; chats: number };
  log: { read: number; holding: number };
  other: number;
  d1: { read: number; holding: number };
  unswept: { chat: string; error: string }[];
};

const HAN = "酸辣土豆丝";
const LETTERS = "Bj_2019cls";

const record = loggedBefore;

const step = (body: unknown) => adminApi("/log-credentials/step", { method: "POST", body });

/** The whole sweep, a short step at a time; every answer checked to say no value. */
async function sweep(
  mask: boolean,
): Promise<{ steps: number; log: number; other: number; d1: number; read: number }> {
  const sum = { steps: 0, log: 0, other: 0, d1: 0, read: 0 };
  for (let cursor: string | null = null, done = false; !done; ) {
    const res = await step({ mask, maxMs: 100, ...(cursor === null ? {} : { cursor }) });
    if (res.status !== 200) throw new Error(`a step answered ${res.status}: ${await res.text()}`);
    const text = await res.text();
    for (const v of [HAN, LETTERS]) if (text.includes(v)) throw new Error(`a step says ${v}`);
    const s = JSON.parse(text) as Step;
    if (s.unswept.length > 0) throw new Error(`unswept: ${JSON.stringify(s.unswept)}`);
    sum.steps += 1;
    sum.log += s.log.holding;
    sum.other += s.other;
    sum.d1 += s.d1.holding;
    sum.read += s.log.read + s.d1.read;
    ({ done, cursor } = s);
  }
  return sum;
}

describe("every message log read again by today's detectors", () => {
  it("counts what holds a value without writing, then masks it in every store; a second run finds nothing", async ({
    expect,
  }) => {
    const [priv, group] = ["private:U", "group:G"].map((chat) => `qq:${chat}${uid()}`) as [string, string];
    const plain = "周末去爬山吗 带上水";
    for (const chat of [priv, group]) await registerChat(chat);
    await logInObject(priv, [
      record(priv, 1, `压缩包打开要输 ${HAN} 别外传`),
      record(priv, 2, `好的，记住了：${HAN}`, "out"),
      record(priv, 3, plain),
    ]);
    await logInD1([
      record(group, 4, `班级网盘我设的是 ${LETTERS} 大家别乱删`),
      record(group, 5, `收到 ${LETTERS}`, "out"),
      record(group, 6, plain),
    ]);
    expect((await storedAnywhere([HAN, LETTERS])).length).toBeGreaterThan(0);

    const audits = await auditCount("log_credentials.");
    const counted = await sweep(false);
    expect(counted).toMatchObject({ log: 2, other: 0, d1: 2, read: 6 });
    // A cursor names where a step starts: D1's stage reads only D1's log.
    const fromD1 = (await (await step({ cursor: "d1:0" })).json()) as Step;
    expect(fromD1).toMatchObject({ done: true, cursor: null, log: { read: 0 }, d1: { read: 3, holding: 2 } });
    expect(await storedAnywhere([HAN])).not.toEqual([]);
    expect(await storedAnywhere([LETTERS])).not.toEqual([]);
    expect(await auditCount("log_credentials.")).toBe(audits);

    expect(await sweep(true)).toMatchObject({ log: 2, other: 0, d1: 2, read: 6 });
    expect(await storedAnywhere([HAN, LETTERS])).toEqual([]);
    expect(await auditCount("log_credentials.")).toBeGreaterThan(audits);
    const kept = await env.DB.prepare("SELECT text FROM messages WHERE chat_key = ? ORDER BY ts")
      .bind(group)
      .all<{ text: string }>();
    expect(kept.results.map((r) => r.text)).toEqual([
      "班级网盘我设的是 [已隐藏的凭据] 大家别乱删",
      "收到 [已隐藏的凭据]",
      plain,
    ]);

    expect(await sweep(true)).toMatchObject({ log: 0, other: 0, d1: 0, read: 6 });
  });

  it("refuses a bad body or cursor whole, and asks for an admin", async ({ expect }) => {
    for (const body of [
      { cursor: "x:1:qq:group:G" },
      { cursor: "d1:-1" },
      { cursor: "" },
      { mask: "yes" },
      { mask: 1 },
      { maxMs: 5 },
      { maxMs: 60_000 },
      { mask: true, also: 1 },
    ]) {
      const res = await step(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await withoutAdmin("POST", "/log-credentials/step")).status).toBe(401);
  });
});
