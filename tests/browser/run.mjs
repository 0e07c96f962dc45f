// End-to-end dashboard tests: playwright-core drives Debian's Chromium against a locally
// started Worker (wrangler dev, local mode, fresh state on tmpfs). Saves a screenshot of every
// page under docs/screenshots/. Without /usr/bin/chromium the run is skipped loudly, except
// under CI=true, where it fails.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { effectiveDevVars, root } from "../../scripts/lib/dev-vars.mjs";
import { applyLocalMigrations, LOCAL_MODE_VARS, startWranglerDev } from "../../scripts/lib/wrangler.mjs";
import { sessionsSteps } from "./sessions-steps.mjs";
import { credentialsSteps } from "./steps/credentials.mjs";
import { claimSteps, memoryAddMoveSteps } from "./steps/first-day.mjs";
import { forgetPersonBackfillSteps } from "./steps/forget-person-backfill.mjs";
import { knowledgeIdentityMigrationsSteps } from "./steps/knowledge-identity-migrations.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const PORT = Number(process.env.BROWSER_TEST_PORT ?? 8961);
const SHOTS = path.join(root, "docs", "screenshots");

if (!existsSync(CHROMIUM)) {
  if (process.env.CI === "true") {
    console.error(
      `browser tests: ${CHROMIUM} is missing and CI=true — install chromium (apt-get install -y chromium)`,
    );
    process.exit(1);
  }
  console.warn(
    `\n${"!".repeat(72)}\n!! browser tests SKIPPED: ${CHROMIUM} not found (apt-get install -y chromium)\n${"!".repeat(72)}\n`,
  );
  process.exit(0);
}

const scratch = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();
const state = mkdtempSync(path.join(scratch, "akasha-browser-state-"));
const profile = mkdtempSync(path.join(scratch, "akasha-browser-profile-"));
const token = effectiveDevVars().values.ADMIN_TOKEN;
const base = `http://localhost:${PORT}`;
const results = [];
const cspViolations = [];
let server;
let context;

async function step(name, fn) {
  try {
    await fn();
    results.push({ name, ok: true });
    console.log(`  ✓ ${name}`);
  } catch (error) {
    results.push({ name, ok: false });
    console.log(
      `  ✗ ${name}\n    ${String(error?.stack ?? error)
        .split("\n")
        .slice(0, 6)
        .join("\n    ")}`,
    );
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/**
 * This run's tag, in the ids and in the words the steps send: six syllables ("kamitosuneba"). Not
 * a base-36 clock ("mw4sx6hl"): a run of letters and digits in a message is what the trained
 * reader of credential values masks, and the steps look for the tag in what was stored.
 */
function syllables() {
  const consonants = "bdfghjklmnprstz";
  const vowels = "aeiou";
  return Array.from(crypto.getRandomValues(new Uint16Array(6)), (n) => {
    const i = n % (consonants.length * vowels.length);
    return `${consonants[Math.floor(i / vowels.length)]}${vowels[i % vowels.length]}`;
  }).join("");
}

async function devMessage(body) {
  const res = await fetch(`${base}/dev/message`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`/dev/message answered ${res.status}: ${await res.text()}`);
  return res.json();
}

const shot = (page, name) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

try {
  mkdirSync(SHOTS, { recursive: true });
  applyLocalMigrations(state);
  // Local mode asked for explicitly (startWranglerDev adds it too): dev defaults, /dev routes.
  server = await startWranglerDev({
    port: PORT,
    persistTo: state,
    quiet: true,
    vars: { ...LOCAL_MODE_VARS },
  });
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1100, height: 800 },
    args: [
      "--no-sandbox",
      "--disable-background-networking",
      "--disable-gpu",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  // Every page runs under the dashboard's Content-Security-Policy: whatever it blocks (an
  // inline script, style or handler) is collected here and fails the run at the end.
  await context.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (e) =>
      console.error(
        `Content Security Policy violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"}`,
      ),
    ),
  );
  context.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text()))
      cspViolations.push(`${message.location()?.url ?? "?"}: ${message.text()}`);
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const run = syllables();
  const group = `qq:group:G${run}`;
  const user = `U${run}`;

  await step("an anonymous visitor is sent to the login page", async () => {
    await page.goto(`${base}/admin`);
    assert(new URL(page.url()).pathname === "/admin/login", `landed on ${page.url()}`);
    await shot(page, "login");
  });

  await step("an inline script is blocked by the policy, and the check sees it (the control)", async () => {
    await page.evaluate(() => {
      const script = document.createElement("script");
      script.textContent = "window.__inlineRan = true";
      document.body.append(script);
    });
    await page.waitForTimeout(200);
    assert((await page.evaluate(() => window.__inlineRan)) === undefined, "the inline script ran");
    assert(cspViolations.length > 0, "no violation was reported for the blocked script");
    cspViolations.length = 0;
  });

  await step("a wrong token is refused", async () => {
    await page.fill('input[name="token"]', "not-the-token");
    await page.click('button[type="submit"]');
    assert((await page.textContent(".error"))?.includes("这不是管理口令"), "no error shown");
  });

  await step("logs in with the admin token and sees the overview", async () => {
    await page.fill('input[name="token"]', token);
    await page.click('button[type="submit"]');
    await page.waitForURL(`${base}/admin`);
    assert((await page.textContent("h1")) === "概览", "no overview heading");
    assert((await page.getAttribute("html", "lang")) === "zh-CN", "the page is not Chinese");
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === "akasha_session");
    assert(session?.httpOnly && session.secure && session.sameSite === "Strict", "session cookie flags");
  });

  await claimSteps({ page, base, token, run, step, assert, shot, devMessage });

  await step("a message sent through /dev/message is on the history page", async () => {
    await devMessage({ chat: group, sender: user, name: "小林", text: `浏览器测试消息 ${run}` });
    await page.goto(`${base}/admin`);
    await shot(page, "overview");
    await page.goto(`${base}/admin/chats`);
    await shot(page, "chats");
    await page.click(`a[href="/admin/chats/${encodeURIComponent(group)}"]`);
    await page.fill('input[name="q"]', run);
    await page.click('form.filters button[type="submit"]');
    const rows = await page.locator("tbody tr").allTextContents();
    assert(
      rows.some((r) => r.includes(`浏览器测试消息 ${run}`) && r.includes("小林")),
      `rows: ${rows.join(" | ")}`,
    );
    await shot(page, "history");
  });

  const secret = `别告诉别人我下周三去医院复查 ${run}`;
  await step("a private memory shows on the memory page with its sensitivity", async () => {
    const answer = await devMessage({ chat: `qq:private:${user}`, text: `/remember ${secret}` });
    assert(JSON.stringify(answer).length > 0, "no answer");
    await page.goto(`${base}/admin/memory?text=${encodeURIComponent(run)}`);
    const row = page.locator("#memory-items tbody tr", { hasText: "医院复查" });
    assert((await row.count()) === 1, `memory rows: ${await row.count()}`);
    const tag = (await row.locator(".tag").first().textContent())?.trim();
    const api = await fetch(`${base}/api/memory?text=${encodeURIComponent(run)}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const stored = (await api.json()).items?.[0]?.sensitivity;
    assert(stored === "private" || stored === "secret_like", `stored sensitivity: ${stored}`);
    assert(tag === stored, `sensitivity shown: ${tag}, stored: ${stored}`);
    await shot(page, "memory");
  });

  await step("a group's context preview does not contain the private memory", async () => {
    await page.goto(`${base}/admin/memory`);
    await page.fill('input[name="pchat"]', group);
    await page.fill('input[name="psender"]', user);
    await page.fill('input[name="ptext"]', "他下周三去哪里？医院复查");
    await page.click('form[action="/admin/memory#preview"] button');
    await page.waitForSelector("#preview-result");
    const shown = await page.textContent("#preview-result");
    assert(!shown.includes("医院复查"), "the private memory leaked into the group preview");
    await page.goto(
      `${base}/admin/memory?pchat=${encodeURIComponent(`qq:private:${user}`)}&ptext=${encodeURIComponent("我下周三去医院复查吗")}`,
    );
    const own = await page.textContent("#preview-result");
    assert(
      own.includes("医院复查"),
      "the preview of the private chat itself should recall it (the check above means something)",
    );
    await shot(page, "memory-preview");
  });

  await sessionsSteps({ page, base, token, step, assert, shot, run, group, user });

  await step(
    "a setting changed through the form: an invalid value keeps the form and names the field",
    async () => {
      await page.goto(`${base}/admin/settings`);
      assert((await page.textContent("h1")) === "设置", "no settings heading");
      await page.fill('input[name="retention.groupDays"]', "0");
      await page.fill('input[name="turn.recentTurns"]', "9");
      await page.click("#settings-form button[type=submit]");
      const error = await page.textContent("#field-retention-groupDays-error");
      assert(error?.includes("应在 1 到 3650 之间"), `error beside the field: ${error}`);
      assert(
        (await page.textContent("#settings-form-error"))?.includes("未保存"),
        "no summary of the refusal",
      );
      assert((await page.inputValue('input[name="turn.recentTurns"]')) === "9", "typed value not kept");
      assert((await page.inputValue('input[name="retention.groupDays"]')) === "0", "typed value not kept");
      await shot(page, "settings-invalid");
      await page.fill('input[name="retention.groupDays"]', "45");
      await page.click("#settings-form button[type=submit]");
      assert((await page.textContent(".notice"))?.includes("已保存"), "no saved notice");
      assert((await page.inputValue('input[name="retention.groupDays"]')) === "45", "saved value not shown");
      const api = await fetch(`${base}/api/settings`, { headers: { authorization: `Bearer ${token}` } });
      const saved = await api.json();
      assert(saved.stored?.retention?.groupDays === 45, `stored: ${JSON.stringify(saved.stored)}`);
      await shot(page, "settings");
    },
  );

  await step(
    "a bad setting in the JSON editor shows the error with the field and keeps the typed text",
    async () => {
      await page.goto(`${base}/admin/settings`);
      await page.click("#advanced summary");
      const typed = '{\n  "retention": { "groupDays": "soon" }\n}';
      await page.fill('textarea[name="stored"]', typed);
      await page.click("#settings-json button[type=submit]");
      const error = await page.textContent("#settings-error");
      assert(error.includes("retention.groupDays"), `error shown: ${error}`);
      assert((await page.inputValue('textarea[name="stored"]')) === typed, "typed text was not kept");
      await shot(page, "settings-json");
    },
  );

  await step(
    "follows a group on the follow page and unfollows it; a private chat is refused beside the field",
    async () => {
      await page.goto(`${base}/admin/follow`);
      assert((await page.textContent("h1")) === "关注的群", "no follow heading");
      await page.fill("#add-chat", `qq:private:${user}`);
      await page.click("#add-chat-form button[type=submit]");
      assert((await page.textContent("#add-chat-error"))?.length > 0, "no error beside the field");
      assert((await page.inputValue("#add-chat")) === `qq:private:${user}`, "typed value not kept");
      const other = `qq:group:F${run}`;
      // Local mode follows every group ("*"): unfollow that for an explicit list, restore it after.
      await page.click(`#followed li:has(code:text-is("*（全部群）")) button`);
      await page.fill("#add-chat", other);
      await page.click("#add-chat-form button[type=submit]");
      assert((await page.textContent(".notice"))?.includes(`已关注 ${other}`), "no followed notice");
      await shot(page, "follow");
      await page.click(`#followed li:has(code:text-is("${other}")) button`);
      assert((await page.textContent(".notice"))?.includes(`已取消关注 ${other}`), "no unfollowed notice");
      const api = await fetch(`${base}/api/follow`, { headers: { authorization: `Bearer ${token}` } });
      assert(!(await api.json()).groups.includes(other), "still followed after unfollow");
      await page.fill("#add-chat", "*");
      await page.click("#add-chat-form button[type=submit]");
      assert(
        (await page.textContent("#followed"))?.includes("*（全部群）"),
        "every group not followed again",
      );
    },
  );

  await step("adds an admin on the admins page and removes it", async () => {
    await page.goto(`${base}/admin/admins`);
    assert((await page.textContent("h1")) === "管理员", "no admins heading");
    const account = `qq:user:A${run}`;
    await page.fill("#add-account", account);
    await page.click("#add-account-form button[type=submit]");
    assert((await page.textContent(".notice"))?.includes(`已添加管理员 ${account}`), "no added notice");
    await shot(page, "admins");
    await page.click(`#admins li:has(code:text-is("${account}")) button`);
    assert((await page.textContent(".notice"))?.includes(`已移除管理员 ${account}`), "no removed notice");
  });

  await step("switches the dashboard to English and back to Chinese", async () => {
    await page.goto(`${base}/admin/settings`);
    assert((await page.getAttribute("html", "lang")) === "zh-CN", "not Chinese before the switch");
    await page.click("#language-switch");
    await page.waitForURL(`${base}/admin/settings`);
    assert((await page.getAttribute("html", "lang")) === "en", "not English after the switch");
    assert((await page.textContent("h1")) === "Settings", `heading: ${await page.textContent("h1")}`);
    assert((await page.textContent("legend")) === "Message retention", "form not in English");
    await shot(page, "settings-en");
    await page.goto(`${base}/admin`);
    assert((await page.textContent("h1")) === "Overview", "another page not in English");
    await page.click("#language-switch");
    await page.waitForURL(`${base}/admin`);
    assert((await page.getAttribute("html", "lang")) === "zh-CN", "not Chinese after switching back");
    assert((await page.textContent("h1")) === "概览", "heading not Chinese after switching back");
  });

  await step("the audit log page lists entries", async () => {
    await page.goto(`${base}/admin/audit`);
    assert((await page.textContent("h1")) === "审计日志", "no audit heading");
    await shot(page, "audit");
  });

  await knowledgeIdentityMigrationsSteps({ page, base, run, group, state, step, assert, shot });
  await credentialsSteps({ page, base, run, group, state, step, assert, shot });
  await forgetPersonBackfillSteps({ page, base, token, run, state, step, assert, shot });
  await memoryAddMoveSteps({ page, base, token, run, group, step, assert, shot });

  await step("logs out and is refused afterwards", async () => {
    await page.goto(`${base}/admin`);
    await page.click('form[action="/admin/logout"] button');
    await page.waitForURL(`${base}/admin/login`);
    await page.goto(`${base}/admin/memory`);
    assert(new URL(page.url()).pathname === "/admin/login", `after logout landed on ${page.url()}`);
    const api = await page.request.get(`${base}/api/chats`);
    assert(api.status() === 401, `API after logout: ${api.status()}`);
  });

  await step("no page broke the Content-Security-Policy", async () => {
    assert(cspViolations.length === 0, `violations:\n${cspViolations.join("\n")}`);
  });
} catch (error) {
  results.push({ name: "setup", ok: false });
  console.error(error);
} finally {
  await context?.close().catch(() => {});
  server?.stop();
  rmSync(state, { recursive: true, force: true });
  rmSync(profile, { recursive: true, force: true });
}

const failed = results.filter((r) => !r.ok).length;
console.log(`\nbrowser: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
