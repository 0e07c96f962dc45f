// Browser steps for forgetting a person on the Identity page (the confirm step counts what
// would go, the result says what went) and restarting a failed OneBot backfill from the
// Sessions page (the row shows the recorded cursor; the restart keeps it).
import { d1ExecuteFile } from "../../../scripts/lib/d1.mjs";

export async function forgetPersonBackfillSteps({ page, base, token, run, state, step, assert, shot }) {
  const person = `forget-${run}`;
  const accounts = [`qq:user:F1${run}`, `onebot:user:F2${run}`];
  const groupId = String(Date.now() % 1e9);
  const onebotGroup = `onebot:group:${groupId}`;

  await step("identity: forgetting a person shows the counts first, then what was removed", async () => {
    for (const account of accounts) {
      const res = await fetch(`${base}/api/identity/link`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ account, person }),
      });
      assert(res.ok, `link ${account}: ${res.status}`);
    }
    d1ExecuteFile(
      `INSERT INTO account_observations (account_key, chat_key, user_id, first_seen, last_seen) VALUES
         ('${accounts[0]}', 'qq:group:GF${run}', 'F1', 1000, 1000),
         ('${accounts[1]}', 'onebot:group:7${groupId}', 'F2', 1000, 1000);
       INSERT INTO nodes (node_id, node_type, source_type, scope_type, scope_id, kind, raw_text, retrieval_text, retrieval_tokens,
         metadata, provenance, sensitivity, sensitivity_source, content_hash, created_at, updated_at)
       VALUES ('forget-${run}', 'memory', 'conversation', 'account', '${accounts[0]}', 'preference', '喜欢榴莲 ${run}', '喜欢榴莲',
         '喜欢 榴莲', '{}', '{}', 'private', 'default', 'h-forget-${run}', 1000, 1000);`,
      { persistTo: state },
    );
    await page.goto(`${base}/admin/identity`);
    await page.click(`a[href="/admin/identity/forget?person=${encodeURIComponent(person)}"]`);
    await page.waitForSelector("#confirm-forget-person");
    const counts = await page.textContent("#confirm-forget-person");
    assert(counts.includes("个人记忆 1 条"), `memory count: ${counts}`);
    assert(counts.includes("观察记录 2 条"), `observation count: ${counts}`);
    assert(counts.includes(accounts[0]) && counts.includes(accounts[1]), `accounts: ${counts}`);
    await shot(page, "identity-forget-confirm");
    // A mistyped confirmation removes nothing and asks again.
    await page.fill('#confirm-forget-person input[name="confirm"]', "nope");
    await page.click('#confirm-forget-person button[type="submit"]');
    const again = await page.textContent('[role="alert"]');
    assert(again.includes("什么都没有删除"), `mistyped confirm: ${again}`);
    assert((await page.textContent("#confirm-forget-person")).includes("观察记录 2 条"), "counts changed");
    await page.fill('#confirm-forget-person input[name="confirm"]', person);
    await page.click('#confirm-forget-person button[type="submit"]');
    const notice = await page.textContent(".notice");
    assert(notice.includes(`已删除 ${person} 的个人记忆 1 条`), `result: ${notice}`);
    assert(notice.includes("观察记录 2 条"), `result: ${notice}`);
    const audit = await fetch(`${base}/api/audit?action=session.forget-person`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert(audit.ok, `audit API: ${audit.status}`);
    const { entries } = await audit.json();
    const mine = entries.filter((e) => e.target === person);
    assert(mine.length >= 2 && mine.every((e) => e.actor), `audited with the admin: ${JSON.stringify(mine)}`);
  });

  await step("sessions: a failed OneBot backfill shows its cursor and restarts from it", async () => {
    d1ExecuteFile(
      `INSERT INTO chats (chat_key, channel, target_type, target_id, title, followed, first_seen, last_seen)
         VALUES ('${onebotGroup}', 'onebot', 'group', '${groupId}', '浏览器群 ${run}', 1, 1000, 1000);
       INSERT INTO backfill_progress (chat_key, status, cursor, pages, fetched, stored, skipped, errors, last_error, started_at, updated_at)
         VALUES ('${onebotGroup}', 'failed', '4242', 100, 60, 60, 0, 4, 'http: HTTP 502', 1000, 1000);`,
      { persistTo: state },
    );
    await page.goto(`${base}/admin/sessions`);
    const row = page.locator(`tr[data-backfill="${onebotGroup}"]`);
    const shown = await row.textContent();
    assert(shown.includes("failed") && shown.includes("游标 4242"), `backfill row: ${shown}`);
    assert(shown.includes(`浏览器群 ${run}`), `the group's title: ${shown}`);
    await shot(page, "sessions-backfill");
    await row.locator('button:has-text("重新开始")').click();
    const notice = await page.textContent(".notice");
    assert(notice.includes("从 message_seq 4242 之前继续"), `restart notice: ${notice}`);
    const after = await page.locator(`tr[data-backfill="${onebotGroup}"]`).textContent();
    assert(after.includes("running") && after.includes("游标 4242"), `after restart: ${after}`);
    assert(
      (await page.locator(`tr[data-backfill="${onebotGroup}"] button`).count()) === 0,
      "a running backfill still offers Restart",
    );
  });
}
