// The CLI end to end against a locally started Worker (wrangler dev, local mode, fresh state
// on tmpfs, CLI_TEST_PORT, default 8962): a message through the dev console, then the commands
// an owner runs — status, chats, messages --export, memory list/show/archive/done/forget, audit,
// usage, backup of the local file, notices, doctor, kb, sessions, embeddings and an owner
// migration's inspect — each as a child process, checking exit codes, --json, and the text
// output in Chinese (the default) and English (--lang en).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { d1Query } from "../../scripts/lib/d1.mjs";
import { root } from "../../scripts/lib/dev-vars.mjs";
import { applyLocalMigrations, startWranglerDev } from "../../scripts/lib/wrangler.mjs";

const PORT = Number(process.env.CLI_TEST_PORT ?? 8962);
const base = `http://127.0.0.1:${PORT}`;
const scratch = existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir();
const state = mkdtempSync(path.join(scratch, "akasha-cli-state-"));
const out = mkdtempSync(path.join(os.tmpdir(), "akasha-cli-out-"));
const TOKEN = "cli-e2e-admin-token";
let server;

function akasha(...args) {
  const r = spawnSync(process.execPath, [path.join(root, "scripts/akasha.mjs"), ...args], {
    cwd: out,
    encoding: "utf8",
    env: { ...process.env, AKASHA_URL: base, AKASHA_ADMIN_TOKEN: TOKEN, INIT_CWD: out },
  });
  return { code: r.status, out: r.stdout, err: r.stderr, json: () => JSON.parse(r.stdout) };
}

/**
 * An admin API POST on a connection of its own: fetch's pooled one from before() may have been
 * closed by the Worker while the synchronous tests ran, and a POST is not retried.
 */
function postApi(route, body) {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${route}`,
      {
        method: "POST",
        agent: false,
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode, json: JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

before(async () => {
  applyLocalMigrations(state);
  server = await startWranglerDev({
    port: PORT,
    persistTo: state,
    quiet: true,
    vars: {
      QQ_BOT_APPID: "102000000",
      QQ_BOT_SECRET: "cliE2eSecret0123456789abcdefghij",
      ADMIN_TOKEN: TOKEN,
    },
  });
  for (const [chat, text] of [
    ["qq:private:CLIU1", "记住我喜欢猫"],
    ["qq:group:CLIG1", "大家好"],
  ]) {
    const res = await fetch(`${base}/dev/message`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ chat, sender: "CLIU1", text }),
    });
    assert.equal(res.status, 200, await res.text());
  }
});

after(async () => {
  if (server) {
    const exited = new Promise((r) => server.child.once("exit", r));
    server.stop();
    if (server.child.exitCode === null) await exited;
  }
  rmSync(state, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

describe("the CLI against a local Worker", () => {
  it("status, chats and usage answer with --json", () => {
    const s = akasha("status", "--json");
    assert.equal(s.code, 0, s.err);
    assert.equal(s.json().healthy, true);
    assert.equal(s.json().stats.chats, 2);
    const chats = akasha("chats", "--json")
      .json()
      .chats.map((c) => c.chatKey)
      .sort();
    assert.deepEqual(chats, ["qq:group:CLIG1", "qq:private:CLIU1"]);
    const u = akasha("usage", "--json", "--days", "1").json();
    assert.equal(u.spend.timeZone, "Asia/Shanghai");
    assert.ok(u.spend.global.tokens > 0, "the group turn used the offline model");
  });

  it("messages --export writes every message of the chat", () => {
    const r = akasha("messages", "qq:private:CLIU1", "--export", "dump.jsonl");
    assert.equal(r.code, 0, r.err);
    const rows = readFileSync(path.join(out, "dump.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      rows.map((m) => m.direction),
      ["in", "out"],
    );
    assert.equal(rows[0].text, "记住我喜欢猫");
  });

  it("memory list → show → archive → forget, each audited; errors exit 1 with the API's message", () => {
    const list = akasha("memory", "list", "--json", "--chat", "qq:private:CLIU1");
    assert.equal(list.code, 0, list.err);
    const [item] = list.json().items;
    assert.match(item.text, /喜欢猫/);
    assert.match(akasha("memory", "show", item.nodeId).out, /喜欢猫/);
    assert.equal(akasha("memory", "archive", item.nodeId).code, 0);
    const again = akasha("memory", "archive", item.nodeId);
    assert.equal(again.code, 1);
    assert.match(again.err, /HTTP 400：只有有效（active）的条目才能归档，什么都没有改变/);
    assert.equal(akasha("memory", "forget", item.nodeId, "--yes").code, 0);
    assert.equal(akasha("memory", "show", item.nodeId).code, 1);
    const actions = akasha("audit", "--json", "--action", "memory.")
      .json()
      .entries.map((e) => e.action);
    assert.deepEqual(actions, ["memory.forget", "memory.archive"]);
  });

  it("a wrong token is refused with exit 1", () => {
    const r = spawnSync(process.execPath, [path.join(root, "scripts/akasha.mjs"), "chats"], {
      encoding: "utf8",
      env: { ...process.env, AKASHA_URL: base, AKASHA_ADMIN_TOKEN: "wrong" },
    });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /不认这个管理口令：请把 AKASHA_ADMIN_TOKEN 设为该 Worker 的 ADMIN_TOKEN/);
  });

  it("backup copies the local database file under a timestamped name", () => {
    const r = akasha("backup", "--persist-to", state, "--out", "backups", "--json");
    assert.equal(r.code, 0, r.err);
    const [copy] = r.json().copies;
    assert.match(path.basename(copy.to), /^akasha-d1-\d{4}-\d{2}-\d{2}T[\d-]+Z\.sqlite$/);
    assert.deepEqual(readdirSync(path.join(out, "backups")), [path.basename(copy.to)]);
  });

  it("messages, memory, kb, sessions and embeddings print Chinese text by default and English with --lang en", () => {
    const zh = akasha("messages", "qq:private:CLIU1");
    assert.equal(zh.code, 0, zh.err);
    assert.match(zh.out, /^时间 +方向 +发送者 +内容$/m);
    assert.match(zh.out, /记住我喜欢猫/);
    assert.match(akasha("messages", "qq:private:CLIU1", "--lang", "en").out, /^time +dir +sender +text$/m);
    // The one memory item was forgotten above: the list says so, with its count.
    assert.match(
      akasha("memory", "list").out,
      /^(编号 +作用域 +类型 +重要度|没有匹配的记忆条目。)[\s\S]*^显示 \d+ 条，共 \d+ 条$/m,
    );
    assert.match(
      akasha("memory", "list", "--lang", "en").out,
      /^(id +scope +kind +imp|No memory items match\.)[\s\S]*^\d+ of \d+$/m,
    );
    assert.equal(akasha("kb", "list").out, "还没有知识库。\n");
    assert.equal(akasha("kb", "list", "--lang", "en").out, "No collections yet.\n");
    assert.match(akasha("sessions", "backfill").out, /^历史补全：未运行/);
    assert.match(akasha("sessions", "backfill", "--lang", "en").out, /^backfill: not running/);
    const rebuilt = akasha("embeddings", "rebuild");
    assert.equal(rebuilt.code, 0, rebuilt.err);
    assert.match(rebuilt.out, /^完成：嵌入了 \d+ 个向量$/m);
    const unknown = akasha("memory", "show", "m_nope", "--lang", "en");
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /HTTP 404: no memory item m_nope/);
    // --json is the same bytes in either language.
    assert.equal(
      akasha("memory", "list", "--json").out,
      akasha("memory", "list", "--json", "--lang", "en").out,
    );
    assert.equal(
      akasha("sessions", "backfill", "--json").out,
      akasha("sessions", "backfill", "--json", "--lang", "en").out,
    );
  });

  it("doctor says each check in the chosen language; its --json is the same in both", () => {
    const zh = akasha("doctor", "--no-model");
    assert.match(zh.out, /^✓ 密钥：必需的密钥已设置/m);
    assert.match(zh.out, /^✓ 迁移：\d+ 个迁移都已应用$/m);
    const english = akasha("doctor", "--no-model", "--lang", "en");
    assert.match(english.out, /^✓ secrets: the required secrets are set/m);
    assert.match(english.out, /^✓ migrations: all \d+ migrations applied$/m);
    assert.doesNotMatch(english.out, /[\u4e00-\u9fff]/);
    assert.equal(zh.code, english.code);
    assert.equal(
      akasha("doctor", "--no-model", "--json").out,
      akasha("doctor", "--no-model", "--json", "--lang", "en").out,
    );
  });

  it("an owner migration's inspect and dry run report in the chosen language and change nothing", () => {
    const zh = akasha("sensitivity-backfill", "inspect", "--persist-to", state, "--out", "plan.json");
    assert.equal(zh.code, 0, zh.err);
    assert.match(zh.out, /^sensitivity-backfill：从本地数据库读取 \d+ 行；已写入 .*plan\.json$/m);
    const dry = akasha(
      "sensitivity-backfill",
      "apply",
      "--persist-to",
      state,
      "--plan",
      "plan.json",
      "--lang",
      "en",
    );
    assert.equal(dry.code, 2);
    assert.match(dry.err, /nothing to apply in .*plan\.json: no entry is approved/);
    assert.match(akasha("sensitivity-backfill", "apply", "--persist-to", state).err, /需要 --plan <文件>/);
    for (const name of ["private-origin", "scope-migration"]) {
      const r = akasha(name, "inspect", "--persist-to", state, "--out", `${name}.json`, "--lang", "en");
      assert.equal(r.code, 0, r.err);
      assert.match(
        r.out,
        new RegExp(`^${name}: read \\d+ rows from the local database; wrote .*${name}\\.json$`, "m"),
      );
      assert.match(r.out, /^Review it, set "approval": "approved" on the rows to apply/m);
    }
    const copied = akasha("backup", "--persist-to", state, "--out", "backups-text");
    assert.equal(copied.code, 0, copied.err);
    assert.match(copied.out, /^已复制 .*\.sqlite\n {4}→ .*akasha-d1-.*\.sqlite$/m);
  });

  it("notices lists the open notices, ack acknowledges one (audited), and bad or unknown ids change nothing", () => {
    const [{ id }] = d1Query(
      `INSERT INTO owner_notices (kind, subject, text, first_seen, last_seen, count, window_start, raised_at)
       VALUES ('model-errors', 'workers-ai:timeout', '模型服务 workers-ai 反复出错（timeout），已累计 5 次；请检查模型配置、额度或服务状态。',
               1764800000000, 1764800000000, 5, 1764800000000, 1764800000000) RETURNING id`,
      { persistTo: state },
    );
    const listed = akasha("notices");
    assert.equal(listed.code, 0, listed.err);
    assert.match(listed.out, /^编号 +次数 +最近一次 +状态 +内容$/m);
    assert.match(
      listed.out,
      new RegExp(`^#${id} +5 +2025-12-04 06:13 \\+08:00 +等待发送 +模型服务 workers-ai 反复出错`, "m"),
    );
    const english = akasha("notices", "--lang", "en");
    assert.match(english.out, /Model provider workers-ai keeps failing \(timeout\), 5 times/);
    const json = akasha("notices", "--json").out;
    assert.equal(json, akasha("notices", "--json", "--lang", "en").out);
    assert.deepEqual(
      JSON.parse(json).notices.map((n) => n.id),
      [id],
    );
    // Refused before any request: not a number; unknown: the Worker's 404, nothing changed.
    const bad = akasha("notices", "ack", "1 OR 1");
    assert.equal(bad.code, 2);
    assert.match(bad.err, /'1 OR 1' 不是通知编号/);
    const unknown = akasha("notices", "ack", "999999");
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /没有未确认的通知 #999999/);
    assert.equal(akasha("audit", "--json", "--action", "notice.ack").json().entries.length, 0);
    const ack = akasha("notices", "ack", `#${id}`);
    assert.equal(ack.code, 0, ack.err);
    assert.equal(ack.out, `已确认通知 #${id}，此后不再显示（已记入审计日志）。\n`);
    assert.equal(akasha("notices").out, "没有待确认的通知。\n");
    assert.match(akasha("notices", "--all").out, /已确认/);
    const again = akasha("notices", "ack", String(id), "--lang", "en");
    assert.equal(again.code, 1);
    assert.match(again.err, new RegExp(`no open notice #${id}`));
    const audited = akasha("audit", "--json", "--action", "notice.ack").json().entries;
    assert.deepEqual(
      audited.map((e) => e.target),
      [`#${id}`],
    );
  });

  it("memory move: the Worker's shared-scope refusal is said from its code in either language; confirmed, it moves", async () => {
    const res = await postApi("/api/memory", {
      scope: "chat:qq:private:CLIU1",
      text: "我的生日是三月",
      kind: "fact",
      sensitivity: "private",
    });
    assert.equal(res.status, 201);
    const { item } = res.json;
    const refused = akasha("memory", "move", item.nodeId, "--scope", "chat:qq:group:CLIG1");
    assert.equal(refused.code, 1);
    assert.match(refused.err, /HTTP 409：这条记忆是私密的，移入 chat:qq:group:CLIG1 后那里的所有人都能读到/);
    const english = akasha("memory", "move", item.nodeId, "--scope", "chat:qq:group:CLIG1", "--lang", "en");
    assert.match(
      english.err,
      /HTTP 409: this item is private: in chat:qq:group:CLIG1 everyone there could read it/,
    );
    assert.equal(akasha("memory", "show", item.nodeId, "--json").json().item.scope.type, "chat");
    const missing = akasha("memory", "move", item.nodeId);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /错误：必须给出选项 '--scope <scope>'/);
    const moved = akasha("memory", "move", item.nodeId, "--scope", "chat:qq:group:CLIG1", "--confirm-shared");
    assert.equal(moved.code, 0, moved.err);
    assert.match(moved.out, /作用域 +chat:qq:group:CLIG1/);
  });

  it("memory done: an active task is archived as expired and audited with cause done; a fact is refused in Chinese", async () => {
    const task = await postApi("/api/memory", {
      scope: "chat:qq:private:CLIU1",
      text: "周五交周报",
      kind: "task",
    });
    const fact = await postApi("/api/memory", {
      scope: "chat:qq:private:CLIU1",
      text: "住在杭州",
      kind: "fact",
    });
    assert.equal(task.status, 201);
    const done = akasha("memory", "done", task.json.item.nodeId);
    assert.equal(done.code, 0, done.err);
    assert.match(done.out, /\[task\] archived/);
    assert.match(done.out, /已过期于 +\d{4}-\d{2}-\d{2} \d{2}:\d{2} [+-]\d{2}:\d{2}/);
    const again = akasha("memory", "done", task.json.item.nodeId);
    assert.equal(again.code, 1);
    assert.match(again.err, /HTTP 400：只有有效（active）的待办（task）才能标记完成，什么都没有改变/);
    const refused = akasha("memory", "done", fact.json.item.nodeId);
    assert.equal(refused.code, 1);
    assert.equal(akasha("memory", "show", fact.json.item.nodeId, "--json").json().item.status, "active");
    const expired = akasha("audit", "--json", "--action", "memory.expire").json().entries;
    assert.deepEqual(
      expired.map((e) => [e.target, e.detail.cause, e.detail.via]),
      [[`memory:${task.json.item.nodeId}`, "done", "api"]],
    );
  });
});
