// The CLI's one catalogue (scripts/cli/i18n): both languages complete with the same
// placeholders, every t("…") in the CLI's code names a key, Chinese by default, English with
// --lang en or AKASHA_LANG=en, and --json the same bytes in either language.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { COMMANDS } from "../../scripts/akasha.mjs";
import { setLang } from "../../scripts/cli/i18n/lang.mjs";
import { en } from "../../scripts/cli/i18n/messages-en.mjs";
import { zhCN } from "../../scripts/cli/i18n/messages-zh.mjs";
import { progressBar } from "../../scripts/cli/progress.mjs";
import { runCli, standInServer } from "../support/cli-harness.mjs";
import { cliSources } from "../support/cli-sources.mjs";

const root = path.resolve(import.meta.dirname, "../..");
const placeholders = (m) => [...m.matchAll(/\{(\w+)\}/g)].map((x) => x[1]).sort();

/** The keys the code asks for: t("key"), t(`prefix.${…}`) as a prefix, t(cond ? "a" : "b"). */
function keysUsed(code) {
  const exact = new Set();
  const prefixes = new Set();
  for (const call of code.matchAll(/\bt\(([^()]*?(?:\([^()]*\)[^()]*?)*)(?:,|\))/g)) {
    const arg = call[1];
    for (const m of arg.matchAll(/"([\w.-]+)"/g)) if (/^[\w-]+\.[\w.-]+$/.test(m[1])) exact.add(m[1]);
    for (const m of arg.matchAll(/`([\w.-]*)\$\{/g)) prefixes.add(m[1]);
  }
  return { exact: [...exact], prefixes: [...prefixes] };
}

/** The CLI with no AKASHA_LANG but what the test sets, so that the default language is checked. */
const cli = (argv, env = {}) => runCli(argv, { AKASHA_LANG: undefined, ...env });

describe("the CLI catalogue", () => {
  it("has every key in both languages, with the same placeholders and no empty message", () => {
    assert.deepEqual(Object.keys(en).sort(), Object.keys(zhCN).sort());
    for (const key of Object.keys(zhCN)) {
      assert.ok(zhCN[key].trim() && en[key].trim(), `${key} is empty`);
      assert.deepEqual(placeholders(en[key]), placeholders(zhCN[key]), `${key}: placeholders differ`);
    }
  });

  it("holds every key the CLI's code asks for", () => {
    const missing = [];
    for (const file of cliSources()) {
      const { exact, prefixes } = keysUsed(readFileSync(file, "utf8"));
      for (const key of exact) if (!(key in zhCN)) missing.push(`${path.relative(root, file)}: ${key}`);
      for (const prefix of prefixes)
        if (!Object.keys(zhCN).some((k) => k.startsWith(prefix)))
          missing.push(`${path.relative(root, file)}: ${prefix}…`);
    }
    for (const name of Object.keys(COMMANDS))
      if (!(`summary.${name}` in zhCN)) missing.push(`akasha.mjs: summary.${name}`);
    assert.deepEqual(missing, []);
  });

  it("the key scan sees a call's keys (the control)", () => {
    const { exact, prefixes } = keysUsed('t("a.b"); t(ok ? "c.d" : "e.f", { x }); t(`summary.${name}`)');
    assert.deepEqual(exact.sort(), ["a.b", "c.d", "e.f"]);
    assert.deepEqual(prefixes, ["summary."]);
  });
});

describe("the CLI's language", () => {
  const seen = [];
  const stand = standInServer((req) => {
    seen.push(req.url);
    return [200, { groups: ["qq:group:G1"] }];
  });

  it("speaks Chinese by default and English with --lang en or AKASHA_LANG=en", async () => {
    const zh = await cli(["follow", "list", "--url", stand.base, "--token", "t"]);
    assert.equal(
      zh.out.trim(),
      `${zhCN["follow.list"].replace("{count}", "1").replace("{lines}", "  qq:group:G1")}`,
    );
    const flag = await cli(["follow", "list", "--url", stand.base, "--token", "t", "--lang", "en"]);
    assert.equal(flag.out.trim(), "Followed groups (1):\n  qq:group:G1");
    const envEn = await cli(["follow", "list", "--url", stand.base, "--token", "t"], { AKASHA_LANG: "en" });
    assert.equal(envEn.out, flag.out);
    // The flag wins over the environment, in either direction.
    const back = await cli(["follow", "list", "--url", stand.base, "--token", "t", "--lang=zh-CN"], {
      AKASHA_LANG: "en",
    });
    assert.equal(back.out, zh.out);
  });

  it("--json is the same in both languages", async () => {
    const zh = await cli(["follow", "list", "--url", stand.base, "--token", "t", "--json"]);
    const enJson = await cli([
      "follow",
      "list",
      "--url",
      stand.base,
      "--token",
      "t",
      "--json",
      "--lang",
      "en",
    ]);
    assert.equal(zh.out, enJson.out);
    assert.deepEqual(JSON.parse(zh.out), { groups: ["qq:group:G1"] });
  });

  it("an unreachable Worker says so in Chinese with the command that fixes it", async () => {
    const dead = "http://127.0.0.1:9";
    const zh = await cli(["chats", "--url", dead, "--token", "t"]);
    assert.equal(zh.code, 1);
    assert.match(
      zh.err,
      /^akasha chats: 连不上 http:\/\/127\.0\.0\.1:9（.+）；Worker 在运行吗？请先运行 npm start$/m,
    );
    const enErr = await cli(["chats", "--url", dead, "--token", "t", "--lang", "en"]);
    assert.match(enErr.err, /cannot reach http:\/\/127\.0\.0\.1:9 .*is the Worker running \(npm start\)\?/);
    assert.doesNotMatch(zh.err, /cannot reach/);
  });

  it("the help speaks the chosen language", () => {
    // commander prints help straight to stdout: run the CLI as the owner does.
    const help = (...extra) =>
      spawnSync(process.execPath, [path.join(root, "scripts/akasha.mjs"), "follow", "--help", ...extra], {
        encoding: "utf8",
        env: { ...process.env, AKASHA_LANG: "" },
      }).stdout;
    const zh = help();
    assert.ok(zh.includes(zhCN["follow.desc.list"]) && !zh.includes(en["follow.desc.list"]), zh);
    const english = help("--lang", "en");
    assert.ok(
      english.includes(en["follow.desc.list"]) && !english.includes(zhCN["follow.desc.list"]),
      english,
    );
  });
});

describe("commander's parse errors", () => {
  const cases = [
    [
      ["follow", "lst"],
      "错误：未知命令 'lst'\n（是不是想输入 list？）",
      "error: unknown command 'lst'\n(Did you mean list?)",
    ],
    [["chats", "--colour"], "错误：未知选项 '--colour'", "error: unknown option '--colour'"],
    [["memory", "show"], "错误：缺少必需的参数 'id'", "error: missing required argument 'id'"],
    [
      ["memory", "show", "a", "b"],
      "错误：'show' 的参数太多：应为 1 个，收到 2 个：a、b",
      "error: too many arguments for 'show': expected 1, got 2: a, b",
    ],
    [["chats", "--url"], "错误：选项 '--url <url>' 缺少值", "error: option '--url <url>' argument missing"],
    [
      ["memory", "list", "--limit", "x"],
      "错误：选项 '--limit <n>' 的值 'x' 无效：必须是整数",
      "error: option '--limit <n>' argument 'x' is invalid: must be an integer",
    ],
  ];
  for (const [argv, zh, english] of cases)
    it(`${argv.join(" ")}: exit 2, Chinese by default, English with --lang en`, async () => {
      const a = await cli(argv);
      assert.equal(a.code, 2);
      assert.equal(a.err, `${zh}\n${zhCN["args.helpAfterError"]}\n`);
      assert.equal(a.out, "");
      const b = await cli([...argv, "--lang", "en"]);
      assert.equal(b.code, 2);
      assert.equal(b.err, `${english}\n${en["args.helpAfterError"]}\n`);
    });

  it("the help's titles and the help option speak the chosen language", async () => {
    const zh = await cli([]);
    assert.match(zh.err, /^用法： akasha <command> \[options\]$/m);
    assert.match(zh.err, /^选项：$/m);
    assert.match(zh.err, /^命令：$/m);
    assert.doesNotMatch(zh.err, /Usage:|Options:|display help/);
    const english = await cli(["--lang", "en"]);
    assert.match(english.err, /^Usage: akasha <command> \[options\]$/m);
  });
});

describe("the progress bar", () => {
  /** A terminal stand-in: cli-progress draws only on a TTY. */
  const terminal = () => {
    let drawn = "";
    return {
      isTTY: true,
      columns: 80,
      write: (chunk) => {
        drawn += String(chunk);
        return true;
      },
      cursorTo() {},
      clearLine() {},
      moveCursor() {},
      on() {},
      removeListener() {},
      drawn: () => drawn,
    };
  };

  it("names what it counts in the chosen language, and draws nothing for --json", () => {
    for (const [language, unit] of [
      ["zh-CN", "条消息"],
      ["en", "messages"],
    ]) {
      setLang(language);
      const stream = terminal();
      const bar = progressBar({}, "messages", stream);
      bar.update(3, 10);
      bar.stop();
      assert.match(stream.drawn(), new RegExp(`3/10 ${unit}`));
    }
    setLang("zh-CN");
    const quiet = terminal();
    progressBar({ json: true }, "messages", quiet).update(1, 2);
    assert.equal(quiet.drawn(), "");
  });
});
