// Browser steps for the Knowledge, Identity and Migrations pages and the overview's status
// sections: upload two files (one corrupt) with a progress bar each, read the document tree,
// search the collection, the who-can-read table, a migration plan applied and rolled back.
import { d1ExecuteFile } from "../../../scripts/lib/d1.mjs";

export async function knowledgeIdentityMigrationsSteps({
  page,
  base,
  run,
  group,
  state,
  step,
  assert,
  shot,
}) {
  const collection = `docs-${run}`;
  const marker = `浏览器知识库 ${run}`;

  await step("the overview shows recent errors, retention and embeddings", async () => {
    await page.goto(`${base}/admin`);
    const headings = await page.locator("h2").allTextContents();
    for (const h of ["最近的错误", "消息保留", "向量嵌入"])
      assert(headings.includes(h), `overview headings: ${headings.join(", ")}`);
    await shot(page, "overview");
  });

  await step(
    "creates a collection and uploads two files: one imported, one clear error, a progress bar each",
    async () => {
      await page.goto(`${base}/admin/knowledge`);
      await page.fill('input[name="name"]', collection);
      await page.click('form[action="/admin/knowledge/collections"] button');
      await page.waitForURL((url) => url.searchParams.get("collection") === collection);
      const good = {
        name: "guide.md",
        mimeType: "text/markdown",
        buffer: Buffer.from(
          `# 使用指南\n\n${marker}。\n\n## 安装\n\n运行 npm install 安装依赖，然后 npm start 启动本地服务。\n\n## 配置\n\n在设置页面修改保留天数。\n`,
        ),
      };
      const corrupt = {
        name: "broken.pdf",
        mimeType: "application/pdf",
        buffer: Buffer.from("%PDF-1.7\nthis is not really a pdf\n%%EOF"),
      };
      await page.setInputFiles("#files", [good, corrupt]);
      await page.click("#upload button[type=submit]");
      await page.waitForSelector("#upload[data-done='1']", { timeout: 60_000 });
      const rows = page.locator("#uploads li");
      assert((await rows.count()) === 2, `upload rows: ${await rows.count()}`);
      const ok = (await page.locator('#uploads li[data-file="guide.md"] .result').textContent()) ?? "";
      const bad = (await page.locator('#uploads li[data-file="broken.pdf"] .result').textContent()) ?? "";
      assert(/^(imported|replaced)/.test(ok), `guide.md result: ${ok}`);
      assert(/corrupt|unsupported|failed/.test(bad) && bad.length > 12, `broken.pdf result: ${bad}`);
      assert(
        (await page.locator('#uploads li[data-file="broken.pdf"] .result.bad').count()) === 1,
        "error not marked",
      );
      for (const file of ["guide.md", "broken.pdf"]) {
        const value = await page
          .locator(`#uploads li[data-file="${file}"] progress`)
          .evaluate((p) => p.value);
        assert(value === 100, `${file} progress: ${value}`);
      }
      await shot(page, "knowledge-upload");
    },
  );

  await step("shows the collection's document tree", async () => {
    await page.goto(`${base}/admin/knowledge?collection=${encodeURIComponent(collection)}`);
    await page.click('#documents ~ .scroll a:has-text("guide.md")');
    await page.waitForSelector("#doc-tree");
    const tree = (await page.textContent("#doc-tree")) ?? "";
    assert(tree.includes("安装") && tree.includes("配置"), `tree: ${tree}`);
  });

  await step("searches the collection in the playground with scores, via and citations", async () => {
    await page.goto(`${base}/admin/knowledge?collection=${encodeURIComponent(collection)}`);
    await page.fill('input[name="q"]', "怎么安装依赖");
    await page.click('form[action="/admin/knowledge#search"] button');
    await page.waitForSelector("#search-results");
    const first = page.locator("#search-results tbody tr").first();
    const cells = await first.locator("td").allTextContents();
    assert(cells.length === 5, `result cells: ${cells.join(" | ")}`);
    assert(Number.isFinite(Number(cells[1])), `score: ${cells[1]}`);
    assert(cells[2].trim().length > 0, "no via");
    assert(cells[3].includes("guide.md"), `citation: ${cells[3]}`);
    const all = await page.locator("#search-results tbody tr").allTextContents();
    assert(
      all.some((r) => r.includes("npm install") && r.includes("安装")),
      `no result holds the install section: ${all.join(" | ")}`,
    );
    await shot(page, "knowledge");
  });

  await step("the identity page shows who can read what in each group", async () => {
    await page.goto(`${base}/admin/identity`);
    const table = page.locator("#who-can-read table");
    assert((await table.count()) === 1, "no who-can-read table");
    const row = table.locator("tbody tr", { hasText: group });
    assert((await row.count()) >= 1, `no row for ${group}`);
    const text = (await row.first().textContent()) ?? "";
    assert(text.includes(`chat:${group}`) && text.includes("global:__global__"), `row: ${text}`);
    assert((await row.first().locator(".no-risk").count()) === 1, "group marked as a risk");
    assert((await page.locator("#who-can-read .risk").count()) === 0, "a risk marker is shown");
    await shot(page, "identity");
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, "identity-phone");
    await page.setViewportSize({ width: 1100, height: 800 });
  });

  await step("the migrations page generates a plan, applies a ticked row and rolls it back", async () => {
    // A legacy global item whose evidence names the group: what scope-migration moves.
    const node = `legacy-${run}`;
    d1ExecuteFile(
      `INSERT INTO nodes (node_id, node_type, source_type, scope_type, scope_id, kind, raw_text, retrieval_text, retrieval_tokens,
         metadata, provenance, sensitivity, sensitivity_source, content_hash, created_at, updated_at)
       VALUES ('${node}', 'memory', 'conversation', 'global', '__global__', 'preference', '群里约定周五开会 ${run}', '群里约定周五开会',
         '群里 约定 周五 开会', '{}', '{"session":"${group}"}', 'public', 'default', 'h-${node}', 1000, 1000);`,
      { persistTo: state },
    );
    await page.goto(`${base}/admin/migrations`);
    await page.selectOption('select[name="kind"]', "scope-migration");
    await page.click('form[action="/admin/migrations/plans"] button');
    await page.waitForSelector("#plan");
    const heading = (await page.textContent("#plan h2")) ?? "";
    assert(heading.includes("scope-migration 计划"), `plan heading: ${heading}`);
    const box = page.locator(`#plan input[name="approve"][value="${node}"]`);
    assert((await box.count()) === 1, "no checkbox for the legacy row");
    assert(await box.isChecked(), "a migrate row should start ticked");
    await page.click('#plan button:has-text("应用勾选的行")');
    await page.waitForSelector(".notice");
    const notice = (await page.textContent(".notice")) ?? "";
    assert(notice.startsWith("已应用 1 行"), `after apply: ${notice}`);
    const row = (await page.locator("#plan tbody tr", { hasText: node }).textContent()) ?? "";
    assert(row.includes("已应用") && row.includes(`chat:${group}`), `applied row: ${row}`);
    await shot(page, "migrations");
    await page.check('#plan input[name="confirm"]');
    await page.click('#plan button:has-text("回滚")');
    await page.waitForSelector(".notice");
    const back = (await page.textContent(".notice")) ?? "";
    assert(back.startsWith("已回滚 1 行"), `after rollback: ${back}`);
  });
}
