// The Credentials page (/admin/credentials): what today's detectors read as a credential in
// memory, summaries, dreaming candidates and the message logs, kept before a detector read its
// wording (docs/decisions/0980-memory-kept-before-a-detector-read-it.md,
// docs/decisions/0990-logs-kept-before-a-detector-read-them.md). The page must say no value in
// any wording, change nothing unconfirmed, and erase only what holds one.
// Own file: it counts every log row and audit row, which every test of a file shares.
import { env } from "cloudflare:workers";
import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";
import { auditCount } from "../../support/admin-api";
import { dashboardPage } from "../../support/admin-session";
import { logInD1, logInObject } from "../../support/log-rows";
import { loggedBefore } from "../../support/logged-before";
import { newMemory, seedMemory, uid } from "../../support/memory";
import { nodesStored } from "../../support/memory-row";
import { candidateRow, summary } from "../../support/private-material";
import { registerChat } from "../../support/sessions";
import { storedAnywhere } from "../../support/stored-anywhere";

/**
 * Written for this page, in wordings the detectors' tests do not use: one set a test, since the
 * tests of a file share its storage.
 */
const LISTED = ["酸辣土豆丝", "660718", "Vpn#2026dec", "Gx7741kp", "A0A1A2A3A4A5"] as const;
const ERASED = ["红烧狮子头", "551203", "Wk@2027jan", "Hm5532tq", "B1B2B3B4B5B6"] as const;
const LOGGED = ["糖醋排骨块", "Jp8823rz"] as const;
const VALUES = [...LISTED, ...ERASED, ...LOGGED];

const html = async (res: Response, values: readonly string[] = VALUES) => {
  const text = await res.text();
  for (const v of values) if (text.includes(v)) throw new Error(`the page says ${v}`);
  return text;
};

/** Items, a summary and a rejected candidate holding the values, and one plain item. */
async function seeded(v: typeof LISTED | typeof ERASED) {
  const tag = uid();
  const chat = `qq:group:G${tag}`;
  const [han, digits, letters, plain] = (await seedMemory([
    newMemory(`chat:${chat}`, `记住：压缩包打开要输 ${v[0]} 别外传`, { kind: "fact" }),
    newMemory(`person:P${tag}`, `妈妈的医保卡查询密码是 ${v[1]} 别告诉别人`, { kind: "fact" }),
    newMemory(`person:P${tag}`, `备忘：公司 VPN 临时口令 ${v[2]} 下周一过期`, { kind: "task" }),
    newMemory(`chat:${chat}`, "我们群的名字改成 摸鱼小分队 了", { kind: "fact" }),
  ])) as [string, string, string, string];
  const held = await summary(chat, `今天大家聊了车库。老李说：车库遥控器复制码 ${v[3]}`, "public");
  const candidate = `candidate:${await candidateRow(chat, `我们小区门禁卡的加密扇区密钥是 ${v[4]}`, "rejected", null)}`;
  return { items: [han, digits, letters], plain, summary: held, candidate };
}

const erase = (ids: readonly string[], extra: Record<string, string> = { sure: "yes" }) =>
  dashboardPage("/admin/credentials/erase", [
    ...ids.map((id) => ["id", id] as const),
    ...Object.entries(extra),
  ]);

describe("the Credentials page", () => {
  it("lists memory, summaries and candidates that hold a value, masked, and never says a value", async ({
    expect,
  }) => {
    const s = await seeded(LISTED);
    const res = await dashboardPage("/admin/credentials");
    expect(res.status).toBe(200);
    const page = await html(res);
    expect(page).toContain("<h1>凭据清理</h1>");
    for (const id of [...s.items, s.summary, s.candidate]) expect(page).toContain(`value="${id}"`);
    expect(page).not.toContain(`value="${s.plain}"`);
    expect(page).toContain(`记住：压缩包打开要输 ${CREDENTIAL_MASK} 别外传`);
    expect(page).toContain(`车库遥控器复制码 ${CREDENTIAL_MASK}`);
    expect(page).toContain(`加密扇区密钥是 ${CREDENTIAL_MASK}`);
    expect(page).toContain('href="/admin/credentials"');

    // In English too, and from an offset; a bad offset is named and reads nothing.
    const en = await html(
      await dashboardPage("/admin/credentials?from=0", undefined, { cookie: "akasha_lang=en" }),
    );
    expect(en).toContain("<h1>Credentials</h1>");
    const past = await html(await dashboardPage("/admin/credentials?from=1000000"));
    expect(past).toContain("从第 1000001 条起已经没有内容了");
    expect(past).not.toContain('name="id"');
    const bad = await dashboardPage("/admin/credentials?from=-3");
    expect(bad.status).toBe(400);
    expect(await html(bad)).toContain('role="alert"');
  });

  it("erases the ticked rows only when confirmed and when every one holds a value; else nothing", async ({
    expect,
  }) => {
    const s = await seeded(ERASED);
    const all = [...s.items, s.summary];
    const audits = await auditCount();
    const refusals: [string, Response][] = [
      ["unconfirmed", await erase(all, {})],
      ["a plain item among them", await erase([...all, s.plain])],
      ["an id of nothing", await erase([...all, `m_missing_${uid()}`])],
      ["a malformed id", await erase([...all, "x'; DROP TABLE nodes; --"])],
      ["nothing ticked", await erase([])],
    ];
    for (const [why, res] of refusals) {
      expect(res.status, why).toBe(400);
      expect(await html(res), why).toContain('role="alert"');
    }
    const forged = await dashboardPage(
      "/admin/credentials/erase",
      { id: s.items[0] ?? "", sure: "yes" },
      { csrf: false },
    );
    expect(forged.status).toBe(403);
    expect(await nodesStored([...all, s.plain])).toHaveLength(all.length + 1);
    expect(await auditCount()).toBe(audits);
    expect((await storedAnywhere(ERASED)).length).toBeGreaterThan(0);

    const done = await erase([...all, s.candidate]);
    expect(done.status).toBe(303);
    const location = done.headers.get("location") ?? "";
    expect(location.startsWith("/admin/credentials?")).toBe(true);
    expect(decodeURIComponent(location)).toContain("已抹除 5 条");
    expect(await nodesStored([...all, s.plain])).toEqual([s.plain]);
    expect(await auditCount()).toBe(audits + 5);
    const acts = await env.DB.prepare("SELECT action FROM audit_log ORDER BY rowid DESC LIMIT 5").all<{
      action: string;
    }>();
    expect(acts.results.map((r) => r.action).sort()).toEqual([
      "candidate.withhold",
      "memory.forget",
      "memory.forget",
      "memory.forget",
      "summary.forget",
    ]);
    expect(await storedAnywhere(ERASED)).toEqual([]);
    const after = await html(await dashboardPage(location));
    expect(after).toContain("已抹除 5 条");
    expect(after).not.toContain(`value="${s.candidate}"`);
  });

  it("checks the logs without writing, masks them only when confirmed, and continues from a cursor", async ({
    expect,
  }) => {
    const [priv, group] = ["private:U", "group:G"].map((c) => `qq:${c}${uid()}`) as [string, string];
    for (const chat of [priv, group]) await registerChat(chat);
    await logInObject(priv, [
      loggedBefore(priv, 1, `压缩包打开要输 ${LOGGED[0]} 别外传`),
      loggedBefore(priv, 2, "周末去爬山吗 带上水"),
    ]);
    await logInD1([
      loggedBefore(group, 3, `车库遥控器复制码 ${LOGGED[1]}`),
      loggedBefore(group, 4, `收到，复制码 ${LOGGED[1]}`, "out"),
    ]);
    const values = [...LOGGED];
    const audits = await auditCount("log_credentials.");

    const checked = await dashboardPage("/admin/credentials/log", { mode: "check" });
    expect(checked.status).toBe(200);
    const report = await html(checked, values);
    expect(report).toContain("会话记录读了 2 行，1 行含凭据");
    expect(report).toContain("D1 记录读了 2 行，2 行含凭据");
    expect(report).toContain("检查完毕");
    expect(await storedAnywhere([LOGGED[0]])).not.toEqual([]);
    expect(await storedAnywhere([LOGGED[1]])).not.toEqual([]);

    const unconfirmed = await dashboardPage("/admin/credentials/log", { mode: "mask" });
    expect(unconfirmed.status).toBe(400);
    expect(await html(unconfirmed, values)).toContain('role="alert"');
    const bads: Record<string, string>[] = [
      { mode: "check", cursor: "o:x" },
      { mode: "wipe" },
      { mode: "check", logRead: "-1" },
    ];
    for (const form of bads) {
      const bad = await dashboardPage("/admin/credentials/log", form);
      expect(bad.status, JSON.stringify(form)).toBe(400);
    }
    expect(await storedAnywhere([LOGGED[0]])).not.toEqual([]);
    expect(await auditCount("log_credentials.")).toBe(audits);

    // A cursor carried by the page's 继续 form: D1's stage reads D1's log alone, totals carried on.
    const fromD1 = await html(
      await dashboardPage("/admin/credentials/log", {
        mode: "check",
        cursor: "d1:0",
        logRead: "7",
        logHolding: "3",
      }),
      values,
    );
    expect(fromD1).toContain("会话记录读了 7 行，3 行含凭据");
    expect(fromD1).toContain("D1 记录读了 2 行，2 行含凭据");

    const masked = await dashboardPage("/admin/credentials/log", { mode: "mask", sure: "yes" });
    expect(masked.status).toBe(200);
    expect(await html(masked, values)).toContain("已遮盖 3 行");
    expect(await storedAnywhere(values)).toEqual([]);
    expect(await auditCount("log_credentials.")).toBe(audits + 1);
  });
});
