// Browser steps for the Credentials page: a memory item kept before a detector read its
// wording is listed masked (the value nowhere on the page), the logs are checked, and the item
// is erased only once "确定" is ticked.
import { d1ExecuteFile } from "../../../scripts/lib/d1.mjs";

export async function credentialsSteps({ page, base, run, group, state, step, assert, shot }) {
  const node = `held-${run}`;
  const value = "Gx7741kp";

  await step(
    "the credentials page lists a kept value masked, checks the logs, and erases when confirmed",
    async () => {
      // Written straight into D1, as an item kept before the detectors read "复制码" was.
      d1ExecuteFile(
        `INSERT INTO nodes (node_id, node_type, source_type, scope_type, scope_id, kind, raw_text, retrieval_text, retrieval_tokens,
         metadata, provenance, sensitivity, sensitivity_source, content_hash, created_at, updated_at)
       VALUES ('${node}', 'memory', 'conversation', 'chat', '${group}', 'fact', '车库遥控器复制码 ${value}',
         '车库遥控器复制码 ${value}', '车库 遥控器 复制码 ${value}', '{}', '{}', 'public', 'default', 'h-${node}', 1000, 1000);`,
        { persistTo: state },
      );
      await page.goto(`${base}/admin/credentials`);
      assert((await page.textContent("h1")) === "凭据清理", `heading: ${await page.textContent("h1")}`);
      const row = page.locator("#memory-held tbody tr", { hasText: node });
      assert((await row.count()) === 1, "the kept item is not listed");
      const text = (await row.textContent()) ?? "";
      assert(text.includes("车库遥控器复制码 [已隐藏的凭据]"), `row: ${text}`);
      assert(!(await page.content()).includes(value), "the page says the value");

      await page.click('#log-held button[value="check"]');
      await page.waitForSelector("#log-report");
      const report = (await page.textContent("#log-report")) ?? "";
      assert(report.includes("检查完毕"), `log report: ${report}`);
      await shot(page, "credentials");

      await page.click('#memory-held button:has-text("抹除勾选的内容")');
      const refused = (await page.textContent('[role="alert"]')) ?? "";
      assert(refused.includes("请勾选“确定”"), `unconfirmed erase: ${refused}`);
      assert(
        (await page.locator("#memory-held tbody tr", { hasText: node }).count()) === 1,
        "erased unconfirmed",
      );

      await page.check('#memory-held input[name="sure"]');
      await page.click('#memory-held button:has-text("抹除勾选的内容")');
      await page.waitForSelector(".notice");
      const notice = (await page.textContent(".notice")) ?? "";
      assert(notice.startsWith("已抹除"), `after erase: ${notice}`);
      assert((await page.locator("#memory-held tbody tr", { hasText: node }).count()) === 0, "still listed");
    },
  );
}
