import { env } from "cloudflare:workers";
import { beforeAll, describe, it } from "vitest";
import { api, collectionWith, createCollection, uniqueName, upload } from "../../support/knowledge-api";

// Chunk-searched, so the floor and the fielded ranking run (a tiny collection is otherwise read whole).
beforeAll(async () => {
  const config = { knowledge: { search: { readWholeTokens: 0 } } };
  await env.DB.prepare("INSERT OR REPLACE INTO settings (key, value, updated_at) VALUES ('config', ?1, ?2)")
    .bind(JSON.stringify(config), Date.now())
    .run();
});

const COMPUTED = [
  "# 计算属性",
  "## 基本示例",
  "用 computed() 声明一个计算属性，它返回一个 ref。",
  "## 计算属性缓存 vs 方法",
  "计算属性值会基于其响应式依赖被缓存，只在依赖更新时重新计算；方法调用总会在重渲染时再次执行。",
].join("\n\n");
const WATCH = [
  "# 侦听器",
  "## 基本示例",
  "用 watch() 在响应式状态变化时执行副作用，例如请求数据。",
  "## 深层侦听器",
  "deep 选项让回调在嵌套属性变化时也触发。",
].join("\n\n");

/** A new collection (`prefix-…`) of the two guide pages above, each its own document. */
const computedAndWatchers = (prefix: string) =>
  collectionWith(prefix, [
    { name: "computed.md", content: COMPUTED },
    { name: "watchers.md", content: WATCH },
  ]);

type Item = { citation: { path: string[] }; text: string };

async function kbSearch(body: Record<string, unknown>): Promise<Item[]> {
  const res = await api("/api/kb/search", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`search answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { items: Item[] }).items;
}

describe("POST /api/kb/search: relevance floor and follow-ups", () => {
  it("answers nothing when the collection lacks what the question names, the section when it has it", async ({
    expect,
  }) => {
    const name = await computedAndWatchers("floor");
    // "storetorefs" occurs nowhere in the collection: the default floor empties the answer.
    expect(await kbSearch({ query: "Pinia 的 storeToRefs 怎么用？", collections: [name] })).toEqual([]);
    const answered = await kbSearch({ query: "computed 的缓存和方法有什么区别？", collections: [name] });
    expect(answered[0]?.text).toContain("缓存");
    expect(answered[0]?.citation.path).toContain("计算属性缓存 vs 方法");
  });

  it("searches a follow-up after the earlier user turns it is given", async ({ expect }) => {
    const name = await computedAndWatchers("followup");
    // The same question finds the section of whichever subject the earlier turn named.
    const ask = (turn: string) =>
      kbSearch({ query: "那它的基本示例呢？", turns: [turn], collections: [name] });
    expect((await ask("侦听器怎么用？"))[0]?.citation.path).toEqual(["侦听器", "基本示例"]);
    expect((await ask("计算属性怎么用？"))[0]?.citation.path).toEqual(["计算属性", "基本示例"]);
  });
  it("finds a hyphenated directive by its whole name, whose parts alone are a stopword and a letter", async ({
    expect,
  }) => {
    const name = uniqueName("directive");
    await createCollection(name);
    const CONDITIONAL = [
      "# 条件渲染",
      "## v-if",
      "v-if 指令用于条件性地渲染一块内容。",
      "## v-show",
      "另一个可以用来按条件显示一个元素的指令是 v-show。",
      "## v 开头的别名",
      "v 开头的写法 v 和 if 条件 if 语句 v 语法 v 前缀 v 表达式。",
    ].join("\n\n");
    await upload(name, [{ name: "conditional.md", content: CONDITIONAL }]);
    // Split, "v-if" would be "v" (everywhere) and "if" (a stopword): the phrase finds its section.
    const items = await kbSearch({ query: "v-if 是做什么的？", collections: [name] });
    expect(items[0]?.citation.path).toEqual(["条件渲染", "v-if"]);
  });
});

// How a question asks must not decide what it finds: the bigrams of "是做什么的" are rare in
// documentation, so a search that keeps its rarest terms would rank a code comment saying
// "这些 class 是做什么的" above the section the question names (question-phrases.ts).
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

describe("POST /api/kb/search: question phrases", () => {
  it("ranks the section the question names above passages that only share its question phrase", async ({
    expect,
  }) => {
    const name = await collectionWith("phrases", [
      { name: "reactivity-advanced.md", content: ADVANCED },
      { name: "transition.md", content: TRANSITION },
    ]);
    const items = await kbSearch({ query: "markRaw 是做什么的？什么时候需要用它", collections: [name] });
    expect(items[0]?.citation.path).toEqual(["响应式 API：进阶", "markRaw()"]);
  });
});
