/**
 * Every dashboard response carries the Content-Security-Policy and refuses to be framed, and
 * no page holds what that policy would block: an inline script without the response's nonce,
 * a `<style>` element, a style attribute, an event-handler attribute or a `javascript:` URL.
 * The browser tests run the same pages under the policy and fail on any violation.
 */
import { exports } from "cloudflare:workers";
import { createApp } from "@src/workers/app";
import { parseDocument } from "htmlparser2";
import { beforeAll, describe, it } from "vitest";
import { session } from "../../support/admin-session";
import { createCollection, uniqueName, upload } from "../../support/knowledge-api";
import { newMemory, seedMemory } from "../../support/memory";

type Node = ReturnType<typeof parseDocument>["children"][number];

const get = async (path: string, cookie?: string) =>
  exports.default.fetch(
    new Request(`https://bot.test${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" }),
  );

/** The directives of a policy header: name → sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name = "", ...sources]) => [name, sources]),
  );
}

/** What a page holds that the policy would block, described one per line. */
function blocked(html: string, nonce: string | null): string[] {
  const found: string[] = [];
  const visit = (node: Node) => {
    if (node.type === "script" || node.type === "style" || node.type === "tag") {
      const el = node as Extract<Node, { attribs: Record<string, string> }>;
      if (el.name === "style") found.push("<style> element");
      if (el.name === "script" && !el.attribs.src && el.attribs.nonce !== nonce)
        found.push("inline <script> without the response's nonce");
      for (const [name, value] of Object.entries(el.attribs)) {
        if (name === "style") found.push(`style attribute on <${el.name}>`);
        if (/^on/i.test(name)) found.push(`${name} handler on <${el.name}>`);
        if (/^\s*javascript:/i.test(value)) found.push(`javascript: URL in ${name} of <${el.name}>`);
      }
    }
    if ("children" in node) for (const child of node.children as Node[]) visit(child);
  };
  for (const child of parseDocument(html).children) visit(child);
  return found;
}

/** Every GET page the app registers under /admin, with its parameters filled in. */
function dashboardPages(fill: Record<string, string>): string[] {
  const pages = new Set<string>();
  for (const route of createApp().routes) {
    if (route.method !== "GET" || !/^\/admin(\/|$)/.test(route.path)) continue;
    pages.add(route.path.replace(/:([A-Za-z]+)(\{[^}]*\})?/g, (_, name: string) => fill[name] ?? "x"));
  }
  return [...pages];
}

let cookie = "";
let fill: Record<string, string> = {};

beforeAll(async () => {
  await get("/healthz");
  cookie = (await session()).cookie;
  const collection = uniqueName("csp");
  await createCollection(collection);
  const imported = await upload(collection, [
    { name: "树.md", content: "# 一\n\n## 二\n\n### 三\n\n正文。\n\n#### 四\n\n更深的正文。" },
  ]);
  const [id = ""] = await seedMemory([newMemory("chat:qq:group:CSP1", "带有编辑表单的记忆")]);
  fill = {
    id,
    chat: "qq:group:CSP1",
    name: collection,
    collection,
    doc: imported.body.results[0]?.documentId ?? "",
  };
}, 120_000);

describe("the dashboard's security headers", () => {
  it("finds the pages it checks (the premise)", ({ expect }) => {
    const pages = dashboardPages(fill);
    for (const page of ["/admin", "/admin/login", "/admin/knowledge", "/admin/memory", "/admin/settings"])
      expect(pages).toContain(page);
    expect(pages.length).toBeGreaterThan(10);
  });

  it("every page and asset carries the policy, a fresh nonce, and cannot be framed", async ({ expect }) => {
    const nonces = new Set<string>();
    for (const path of [...dashboardPages(fill), "/admin/app.css", "/admin/nope"]) {
      const res = await get(path, cookie);
      const policy = res.headers.get("content-security-policy");
      expect(policy, path).not.toBeNull();
      const d = directives(policy ?? "");
      expect(d.get("frame-ancestors"), path).toEqual(["'none'"]);
      expect(d.get("default-src"), path).toEqual(["'none'"]);
      expect(d.get("style-src"), path).toEqual(["'self'"]);
      const script = d.get("script-src") ?? [];
      expect(
        script.filter((s) => !s.startsWith("'nonce-")),
        path,
      ).toEqual(["'self'"]);
      const nonce = script.find((s) => s.startsWith("'nonce-"));
      expect(nonce, path).toMatch(/^'nonce-[A-Za-z0-9+/]{20,}={0,2}'$/);
      nonces.add(nonce ?? "");
      expect(policy, path).not.toContain("unsafe-inline");
      expect(policy, path).not.toContain("unsafe-eval");
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), path).toBe("same-origin");
    }
    expect(nonces.size).toBeGreaterThan(10);
  });

  it("no page holds an inline script, style or handler the policy would block", async ({ expect }) => {
    const problems: string[] = [];
    let checked = 0;
    for (const path of dashboardPages(fill)) {
      const res = await get(path, cookie);
      if (!(res.headers.get("content-type") ?? "").startsWith("text/html")) continue;
      const nonce = /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1] ?? null;
      checked++;
      for (const problem of blocked(await res.text(), nonce)) problems.push(`${path}: ${problem}`);
    }
    expect(checked).toBeGreaterThan(8);
    expect(problems).toEqual([]);
  });

  it("the check finds what the policy blocks (the control)", ({ expect }) => {
    const page =
      '<div style="color:red" onclick="x()"><script>alert(1)</script><script nonce="n1">ok()</script><style>p{}</style><a href="javascript:x()">x</a></div>';
    expect(blocked(page, "n1")).toEqual([
      "style attribute on <div>",
      "onclick handler on <div>",
      "inline <script> without the response's nonce",
      "<style> element",
      "javascript: URL in href of <a>",
    ]);
    expect(blocked('<script src="/admin/upload.js"></script>', null)).toEqual([]);
  });

  it("the document tree and the memory editor keep their layout as classes", async ({ expect }) => {
    const tree = await (
      await get(`/admin/knowledge?collection=${fill.collection}&doc=${fill.doc}`, cookie)
    ).text();
    expect(tree).toMatch(/class="depth-[1-8]"/);
    const edit = await (await get(`/admin/memory/${fill.id}/edit`, cookie)).text();
    expect(edit).toContain('class="wide"');
    const css = await (await get("/admin/app.css")).text();
    expect(css).toContain(".tree .depth-1{padding-left:1.1rem}");
    expect(css).toContain("label.wide{width:100%}");
  });
});
