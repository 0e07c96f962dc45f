// The CLI end to end against a locally started Worker (wrangler dev, local mode, fresh state
// on tmpfs, CLI_TEST_PORT, default 8962): a message through the dev console, then the commands
// an owner runs — status, chats, messages --export, memory list/show/archive/forget, audit,
// usage, backup of the local file — each as a child process, checking exit codes and --json.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
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
});
