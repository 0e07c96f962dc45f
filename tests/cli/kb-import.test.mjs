// `kb import` without a Worker: a document is named by its path inside the import, two files
// under one name are refused before any request, and a missing collection is created with
// --create or named with the command that creates it.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, beforeEach, describe, it } from "node:test";
import { files } from "../../scripts/cli/kb.mjs";
import { runCli, standInServer } from "../support/cli-harness.mjs";

const dir = mkdtempSync(path.join(os.tmpdir(), "akasha-kb-import-"));
for (const [file, text] of [
  ["guide/readme.md", "# 指南"],
  ["api/readme.md", "# 接口"],
  ["api/deep/notes.md", "# 笔记"],
  ["top.md", "# 顶层"],
]) {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
}

const seen = [];
let collections = new Set();
const stand = standInServer((req, url, body) => {
  seen.push({
    method: req.method,
    path: url.pathname,
    names: [...body.matchAll(/filename="([^"]*)"/g)].map((m) => m[1]),
  });
  const name = decodeURIComponent(url.pathname.split("/")[4] ?? "");
  let answer = [404, { error: "not-found", what: `collection ${name}` }];
  if (req.method === "GET" && collections.has(name)) answer = [200, { collection: { name }, documents: [] }];
  if (req.method === "POST" && url.pathname === "/api/kb/collections") {
    collections.add(JSON.parse(body).name);
    answer = [201, { created: true }];
  }
  if (req.method === "POST" && url.pathname.endsWith("/documents") && collections.has(name)) {
    const results = seen.at(-1).names.map((file) => ({ file, status: "imported", passages: 1 }));
    answer = [200, { collection: name, results, failed: 0 }];
  }
  return answer;
});
after(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => {
  seen.length = 0;
  collections = new Set();
});

const cli = (argv) => runCli([...argv, "--url", stand.base, "--token", "tok"]);

describe("kb import", () => {
  it("names each document by its path inside the import", () => {
    const names = (inputs, recursive) => files(inputs, recursive).map((f) => f.name);
    assert.deepEqual(names([dir], true), ["api/deep/notes.md", "api/readme.md", "guide/readme.md", "top.md"]);
    assert.deepEqual(names([path.join(dir, "guide/readme.md"), path.join(dir, "api/readme.md")], false), [
      "guide/readme.md",
      "api/readme.md",
    ]);
    assert.deepEqual(names([path.join(dir, "guide"), path.join(dir, "api")], false), [
      "guide/readme.md",
      "api/readme.md",
    ]);
    assert.deepEqual(names([path.join(dir, "top.md")], false), ["top.md"]);
  });

  it("a missing collection stops the import naming the command, and nothing is sent", async () => {
    const r = await cli(["kb", "import", "wiki", dir, "--recursive"]);
    assert.equal(r.code, 1);
    assert.match(
      r.err,
      /知识库 wiki 不存在，什么都没有导入：先运行 npm run akasha -- kb create wiki，或加 --create/,
    );
    assert.deepEqual(
      seen.map((s) => s.method),
      ["GET"],
    );
  });

  it("--create makes the collection, then same-named files in two folders are two documents", async () => {
    const r = await cli(["kb", "import", "wiki", dir, "--recursive", "--create"]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /已创建知识库 wiki/);
    assert.deepEqual(seen.at(-1).names, ["api/deep/notes.md", "api/readme.md", "guide/readme.md", "top.md"]);
    assert.ok(r.out.includes("✓ api/deep/notes.md：已导入，1 个段落\n"), r.out);
    assert.ok(r.out.endsWith("4/4 个文件已导入或未变\n"), r.out);
  });

  it("two inputs that name one document are refused before any request", async () => {
    // The folder and one of its files: top.md twice.
    const r = await cli(["kb", "import", "wiki", dir, path.join(dir, "top.md"), "--create"]);
    assert.equal(r.code, 2);
    assert.match(r.err, /同名（top\.md），什么都没有导入/);
    assert.equal(seen.length, 0);
  });
});
