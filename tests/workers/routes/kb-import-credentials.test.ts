// A document imported into a collection keeps no credential: its passages are read in every
// chat the collection serves, groups included, and quoted back by the bot. The rest of the
// document stays searchable.
import { env } from "cloudflare:workers";
import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";
import { search, seededCollection } from "../../support/knowledge-api";

const KEY = "sk-proj-9f8e7d6c5b4a39281726354433221100aabbccdd";
const PASSWORD = "Rk8#vq2Lm!";

describe("a document holding credentials", () => {
  it("is imported with every credential masked, in every node, and the rest searchable", async ({
    expect,
  }) => {
    const name = await seededCollection("creds", 400, [
      {
        name: `运维手册-${KEY.slice(-6)}.md`,
        content: [
          "# 运维手册",
          "## 服务器登录",
          `跳板机的 root 密码是 ${PASSWORD}，登录后先切换到部署用户。`,
          "## 模型接口",
          `调用模型用的 api_key = ${KEY}，每月额度一百万 token。`,
        ].join("\n\n"),
      },
    ]);
    const rows = await env.DB.prepare(
      "SELECT title, raw_text, retrieval_text, retrieval_tokens FROM nodes WHERE collection = ?1",
    )
      .bind(name)
      .all<Record<string, string | null>>();
    expect(rows.results.length).toBeGreaterThan(2);
    const stored = JSON.stringify(rows.results);
    expect(stored).not.toContain(KEY.slice(8, 30));
    expect(stored).not.toContain(PASSWORD);
    expect(stored).toContain(CREDENTIAL_MASK);
    // The passages still answer what they are about.
    const hits = await search("跳板机登录后切换到哪个用户", [name]);
    expect(JSON.stringify(hits)).toContain("部署用户");
    expect(JSON.stringify(hits)).not.toContain(PASSWORD);
  });
});
