// A document's identity is its path inside the import, and an import into a missing collection
// names the command that fixes it (docs/retrieval.md#import-and-chunking).
import { describe, it } from "vitest";
import { createCollection, json, type UploadFile, uniqueName, upload } from "../../support/knowledge-api";

/** Uploads `files` into a new collection: the upload's answer and the documents it then holds. */
async function uploadIntoNewCollection(prefix: string, files: UploadFile[]) {
  const name = uniqueName(prefix);
  await createCollection(name);
  const r = await upload(name, files);
  const shown = await json<{ documents: { sourceId: string }[] }>(`/api/kb/collections/${name}`);
  return { ...r, documents: shown.documents };
}

describe("knowledge import identity", () => {
  it("keeps same-named files of two folders as two documents", async ({ expect }) => {
    const r = await uploadIntoNewCollection("ident", [
      { name: "guide/readme.md", content: "# 指南\n\n安装步骤在这里。" },
      { name: "api/readme.md", content: "# 接口\n\n接口说明在这里。" },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.results.map((x) => [x.file, x.status])).toEqual([
      ["guide/readme.md", "imported"],
      ["api/readme.md", "imported"],
    ]);
    expect(r.documents.map((d) => d.sourceId).sort()).toEqual(["api/readme.md", "guide/readme.md"]);
  });

  it("refuses a batch that names one document twice, importing none of it", async ({ expect }) => {
    const r = await uploadIntoNewCollection("twice", [
      { name: "readme.md", content: "# 一\n\n第一份。" },
      { name: "readme.md", content: "# 二\n\n第二份。" },
    ]);
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain("readme.md");
    expect(r.documents).toEqual([]);
  });

  it("an import into a missing collection names the command that creates it", async ({ expect }) => {
    const name = uniqueName("absent");
    const r = await upload(name, [{ name: "a.md", content: "# A\n\n内容。" }]);
    expect(r.status).toBe(404);
    expect(JSON.stringify(r.body)).toContain(`npm run akasha -- kb create ${name}`);
  });
});
