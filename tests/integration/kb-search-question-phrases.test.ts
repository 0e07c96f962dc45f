// How a question asks must not decide what it finds: the bigrams of "是做什么的" are rare in
// documentation, so a search that keeps its rarest terms would rank a code comment saying
// "这些 class 是做什么的" above the section the question names (question-phrases.ts).
import { env } from "cloudflare:workers";
import { beforeAll, describe, it } from "vitest";
import { api, createCollection, uniqueName, upload } from "../support/knowledge-api";

// Chunk-searched, so the ranking runs (a tiny collection is otherwise read whole).
beforeAll(async () => {
  const config = { knowledge: { search: { readWholeTokens: 0 } } };
  await env.DB.prepare("INSERT OR REPLACE INTO settings (key, value, updated_at) VALUES ('config', ?1, ?2)")
    .bind(JSON.stringify(config), Date.now())
    .run();
});

const ADVANCED = [
  "# 响应式 API：进阶",
  "## shallowRef()",
  "ref() 的浅层作用形式。和 ref() 不同，浅层 ref 的内部值将会原样存储和暴露，并且不会被深层递归地转为响应式。只有对 .value 的访问是响应式的。",
  "## markRaw()",
  "将一个对象标记为不可被转为代理。返回该对象本身。有些值不应该是响应式的，例如复杂的第三方类实例或 Vue 组件对象；当呈现带有不可变数据源的大型列表时，跳过代理转换可以提高性能。",
  "## toRaw()",
  "根据一个 Vue 创建的代理返回其原始对象。这是一个可以用于临时读取而不引起代理访问和跟踪开销的逃生舱。",
].join("\n\n");

const TRANSITION = [
  "# Transition",
  "## 基于 CSS 的过渡效果",
  "下面我们会解释这些 class 是做什么的：进入和离开各有三个 class。什么时候需要用它？元素插入和移除的时候。",
  "## JavaScript 钩子",
  "你可以通过监听事件在过渡过程中挂上钩子函数。这些钩子是做什么的？什么时候需要用它？它们让你在过渡的每个阶段运行代码。",
].join("\n\n");

type Item = { citation: { path: string[] } };

describe("POST /api/kb/search: question phrases", () => {
  it("ranks the section the question names above passages that only share its question phrase", async ({
    expect,
  }) => {
    const name = uniqueName("phrases");
    await createCollection(name);
    await upload(name, [
      { name: "reactivity-advanced.md", content: ADVANCED },
      { name: "transition.md", content: TRANSITION },
    ]);
    const res = await api("/api/kb/search", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "markRaw 是做什么的？什么时候需要用它", collections: [name] }),
    });
    expect(res.status).toBe(200);
    const items = ((await res.json()) as { items: Item[] }).items;
    expect(items[0]?.citation.path).toEqual(["响应式 API：进阶", "markRaw()"]);
  });
});
