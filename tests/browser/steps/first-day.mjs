// The owner's first day in the browser, in Chinese: the first admin claims through the CLI's
// one-time code and `/claim` in a private chat, and the Admins page then shows them; a memory
// item added on the Memory page and moved to another scope, where a private item into a group
// is refused until "仍然共享" is ticked (the refusal leaves it where it was).
import { execFileSync } from "node:child_process";
import path from "node:path";
import { root } from "../../../scripts/lib/dev-vars.mjs";

export async function claimSteps({ page, base, token, run, step, assert, shot, devMessage }) {
  const owner = `O${run}`;
  await step(
    "first day: the first admin claims with the CLI's code, and the dashboard shows them",
    async () => {
      const printed = execFileSync(
        process.execPath,
        [path.join(root, "scripts/akasha.mjs"), "admins", "claim", "--url", base, "--token", token],
        { encoding: "utf8" },
      );
      const code = printed.match(/\/claim (\S+)/)?.[1];
      assert(code, `no code in the CLI's output: ${printed}`);
      await page.goto(`${base}/admin/admins`);
      assert(!(await page.textContent("main"))?.includes(`qq:user:${owner}`), "an admin before the claim");
      const answer = await devMessage({ chat: `qq:private:${owner}`, text: `/claim ${code}` });
      assert(JSON.stringify(answer).length > 0, "no answer to /claim");
      await page.goto(`${base}/admin/admins`);
      const admins = (await page.textContent("#admins")) ?? "";
      assert(admins.includes(`qq:user:${owner}`), `admins after the claim: ${admins}`);
      await shot(page, "admins-claimed");
      // The code is spent: a second claim with it makes nobody else an admin.
      await devMessage({ chat: `qq:private:X${run}`, text: `/claim ${code}` });
      await page.goto(`${base}/admin/admins`);
      assert(!(await page.textContent("#admins"))?.includes(`qq:user:X${run}`), "a spent code claimed again");
    },
  );
}

export async function memoryAddMoveSteps({ page, base, token, run, group, step, assert, shot }) {
  const text = `周末一起去爬香山 ${run}`;
  const from = `chat:qq:private:M${run}`;
  const stored = async () => {
    const res = await fetch(`${base}/api/memory?text=${encodeURIComponent(run)}&status=active`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return ((await res.json()).items ?? []).find((i) => i.text === text);
  };
  const scopeOf = (item) => `${item?.scope?.type}:${item?.scope?.id}`;

  await step("first day: adds a private memory item on the memory page", async () => {
    await page.goto(`${base}/admin/memory`);
    const form = page.locator('form[action="/admin/memory/add"]');
    await form.locator('input[name="scope"]').fill(from);
    await form.locator('input[name="text"]').fill(text);
    await form.locator('select[name="sensitivity"]').selectOption("private");
    await form.locator('button[type="submit"]').click();
    const notice = (await page.textContent(".notice")) ?? "";
    assert(notice.startsWith("已添加") && notice.includes(from), `added notice: ${notice}`);
    const item = await stored();
    assert(
      item && scopeOf(item) === from && item.sensitivity === "private",
      `stored: ${JSON.stringify(item)}`,
    );
  });

  await step(
    "first day: moving it into a group is refused until 仍然共享 is ticked, then it moves",
    async () => {
      await page.goto(`${base}/admin/memory?text=${encodeURIComponent(run)}`);
      const row = page.locator("#memory-items tbody tr", { hasText: text });
      assert((await row.count()) === 1, `rows: ${await row.count()}`);
      await row.locator('form[action$="/move"] input[name="scope"]').fill(`chat:${group}`);
      await row.locator('form[action$="/move"] button').click();
      const refused = (await page.textContent('[role="alert"]')) ?? "";
      assert(refused.includes("没有移动"), `refusal: ${refused}`);
      assert(scopeOf(await stored()) === from, "moved without the confirmation");
      await shot(page, "memory-move-refused");
      await page.goto(`${base}/admin/memory?text=${encodeURIComponent(run)}`);
      const again = page.locator("#memory-items tbody tr", { hasText: text });
      await again.locator('form[action$="/move"] input[name="scope"]').fill(`chat:${group}`);
      await again.locator('form[action$="/move"] input[name="confirmShared"]').check();
      await again.locator('form[action$="/move"] button').click();
      const notice = (await page.textContent(".notice")) ?? "";
      assert(notice.includes(`已移动`) && notice.includes(`chat:${group}`), `moved notice: ${notice}`);
      assert(notice.includes("按你的确认共享"), `the confirmation is not named: ${notice}`);
      assert(scopeOf(await stored()) === `chat:${group}`, "not moved after the confirmation");
      await page.goto(`${base}/admin/memory?text=${encodeURIComponent(run)}`);
      await shot(page, "memory-moved");
    },
  );
}
