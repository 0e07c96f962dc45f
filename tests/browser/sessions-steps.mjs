// Browser steps for the Sessions page: a private→group link asks for confirmation, then the risk
// marker shows and the group's preview still holds none of the person's private memory; rename,
// unlink, and the owner CLI against the same running Worker.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { root } from "../../scripts/lib/dev-vars.mjs";

export async function sessionsSteps({ page, base, token, step, assert, shot, run, group, user }) {
  const privateChat = `qq:private:${user}`;
  const sessions = async () => {
    const res = await fetch(`${base}/api/sessions?all=true`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return (await res.json()).sessions ?? [];
  };
  const idOf = async (chat) => (await sessions()).find((s) => s.chatKey === chat)?.sessionId;

  await step("sessions: a private→group link asks first, then shows the risk marker", async () => {
    const g = await idOf(group);
    const p = await idOf(privateChat);
    assert(g && p, `sessions of ${group} and ${privateChat}: ${g} ${p}`);
    await page.goto(`${base}/admin/sessions`);
    await page.selectOption('form.filters select[name="a"]', g);
    await page.selectOption('form.filters select[name="b"]', p);
    await page.click('form.filters button[type="submit"]');
    const ask = await page.textContent("#confirm-link");
    assert(ask.includes(`qq:user:${user}`), `confirmation names the account: ${ask}`);
    assert(
      (await idOf(privateChat)) && (await sessions()).find((s) => s.chatKey === privateChat)?.clusterId === p,
      "linked before confirming",
    );
    await page.click('#confirm-link button[type="submit"]');
    await page.waitForSelector(".notice");
    const row = page.locator(`tr[data-session="${g}"]`);
    const marker = await row.locator('[data-risk="private"]').textContent();
    assert(marker.includes("⚠ 读取") && marker.includes("的私聊"), `risk marker: ${marker}`);
    await page.fill(`tr[data-session="${g}"] input[name="alias"]`, `browser-${run}`);
    await page.click(`tr[data-session="${g}"] form[action$="/rename"] button`);
    await page.waitForSelector(".notice");
    assert(
      (await page.locator(`tr[data-session="${g}"] strong`).textContent()) === `browser-${run}`,
      "alias not shown",
    );
    await shot(page, "sessions");
  });

  await step("sessions: the linked group's preview still holds none of the private memory", async () => {
    await page.goto(
      `${base}/admin/memory?pchat=${encodeURIComponent(group)}&psender=${encodeURIComponent(user)}&ptext=${encodeURIComponent("他下周三去哪里？医院复查")}`,
    );
    const shown = await page.textContent("#preview-result");
    assert(shown.includes(privateChat), `the preview reads the linked chat's scope: ${shown.slice(0, 200)}`);
    assert(!shown.includes("医院复查"), "a private item reached the linked group");
  });

  await step("sessions: the owner CLI lists and unlinks; the marker goes away", async () => {
    const cli = (...args) =>
      execFileSync(
        process.execPath,
        [path.join(root, "scripts/akasha.mjs"), "sessions", ...args, "--url", base, "--token", token],
        {
          encoding: "utf8",
        },
      );
    const listed = cli("list", "--all");
    assert(listed.includes(`browser-${run}`), `CLI list: ${listed}`);
    const unlinked = cli("unlink", privateChat);
    assert(unlinked.includes("移出记忆组"), `CLI unlink: ${unlinked}`);
    await page.goto(`${base}/admin/sessions`);
    assert(
      (await page.locator('[data-risk="private"]').count()) === 0,
      "risk marker still shown after unlink",
    );
  });
}
