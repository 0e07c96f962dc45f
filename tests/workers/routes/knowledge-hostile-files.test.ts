/**
 * Hostile files through the import route the CLI (`kb import`) and the dashboard use: each is
 * refused with a 4xx naming the limit, stores nothing, and the Worker goes on answering — the
 * requests in flight next to it and the ones after it. Before the limits, the first two files
 * exhausted the heap of the runtime and every request in it died.
 */
import { env, exports } from "cloudflare:workers";
import { DOCX_LIMITS } from "@src/adapters/documents/docx-package";
import { MAX_MARKDOWN_DEPTH } from "@src/adapters/documents/markdown-nesting";
import { beforeAll, describe, it } from "vitest";
import { deepMarkdownList, docxBomb, lyingDocxBomb } from "../../support/hostile-files";
import { ADMIN, createCollection, type UploadFile, uniqueName, upload } from "../../support/knowledge-api";

beforeAll(() => exports.default.fetch(new Request("https://bot.test/healthz")), 120_000);

const nodesOf = async (collection: string) =>
  (
    await env.DB.prepare("SELECT count(*) AS n FROM nodes WHERE collection = ?")
      .bind(collection)
      .first<{ n: number }>()
  )?.n;

const ordinary = (): UploadFile => ({ name: "说明.md", content: "# 说明\n\n普通的一段文字，导入应当成功。" });

const HOSTILE: [string, () => UploadFile, string, RegExp][] = [
  [
    "a Markdown list of 3,000 nested levels (9 MB)",
    () => ({ name: "deep.md", content: deepMarkdownList(3000) }),
    "too-large",
    /text formats are limited to 2 MiB/,
  ],
  [
    "a Markdown list of 1,000 nested levels (1 MB)",
    () => ({ name: "deeper.md", content: deepMarkdownList(1000) }),
    "too-deep",
    new RegExp(`deeper than ${MAX_MARKDOWN_DEPTH} levels`),
  ],
  [
    "a DOCX that inflates to 120 MB",
    () => ({ name: "bomb.docx", content: docxBomb(120 * 1024 * 1024) }),
    "too-large",
    /the limit is 2\.0 MiB/,
  ],
  [
    "a DOCX whose central directory lies about its size",
    () => ({ name: "liar.docx", content: lyingDocxBomb(120 * 1024 * 1024) }),
    "too-large",
    new RegExp(`more than ${(DOCX_LIMITS.maxTextBytes / 1024 / 1024).toFixed(1)} MiB \\(the limit\\)`),
  ],
  [
    "HTML of 100,000 nested elements",
    () => ({ name: "deep.html", content: `${"<div>".repeat(100_000)}x` }),
    "too-deep",
    /HTML elements nest deeper than 512 levels/,
  ],
];

describe("hostile files through POST /api/kb/collections/:name/documents", () => {
  it.for(HOSTILE)(
    "%s is refused naming the limit, and nothing is stored",
    async ([, file, kind, limit], { expect }) => {
      const name = uniqueName("hostile");
      await createCollection(name);
      const hostile = file();
      const refused = await upload(name, [hostile]);
      expect(refused.status).toBe(422);
      expect(refused.body.results).toHaveLength(1);
      const result = refused.body.results[0];
      expect(result).toMatchObject({ file: hostile.name, status: "failed", error: { kind } });
      expect(result?.error?.message).toMatch(limit);
      expect(await nodesOf(name)).toBe(0);
      // The Worker still answers, and an ordinary file imports into the same collection.
      const after = await upload(name, [ordinary()]);
      expect(after.status).toBe(200);
      expect(after.body.results[0]).toMatchObject({ status: "imported" });
    },
  );

  it("a batch keeps its good files, and requests in flight next to the hostile ones are answered", async ({
    expect,
  }) => {
    const name = uniqueName("hostile");
    await createCollection(name);
    const [batch, settings, chats] = await Promise.all([
      upload(name, [ordinary(), ...HOSTILE.map(([, file]) => file())]),
      exports.default.fetch(new Request("https://bot.test/api/settings", { headers: ADMIN })),
      exports.default.fetch(new Request("https://bot.test/api/chats", { headers: ADMIN })),
    ]);
    expect(batch.status).toBe(200);
    expect(batch.body.results.map((r) => r.status)).toEqual(["imported", ...HOSTILE.map(() => "failed")]);
    expect(batch.body.failed).toBe(HOSTILE.length);
    expect(settings.status).toBe(200);
    expect(chats.status).toBe(200);
  });
});
