import { env } from "cloudflare:workers";
import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { knowledgeCatalogue } from "@src/domain/agent/knowledge-catalogue";
import { knowledgeRecall } from "@src/domain/agent/knowledge-recall";
import { OfflineChatModel } from "@src/domain/agent/offline-chat-model";
import { contextReadTool, kbSearchTool } from "@src/domain/agent/tools/knowledge-tools";
import type { TurnContext } from "@src/domain/agent/turn-context";
import type { TurnServices } from "@src/domain/agent/turn-services";
import { DEFAULT_SETTINGS, type Settings } from "@src/domain/config/settings";
import type { UsageRecord } from "@src/domain/model/chat-model";
import { describe, it } from "vitest";
import { ScriptedChatModel } from "../../../fakes/scripted-chat-model";
import {
  collectionWith,
  createCollection,
  knowledgeTurnServices,
  uniqueName,
  upload,
} from "../../../support/knowledge-api";
import { chatContext } from "../../../support/turn-context";

const context = (chat: string, settings: Settings, text = "你好"): TurnContext =>
  chatContext(chat, text, { settings, now: Date.now() });

const services = knowledgeTurnServices();

/** Unrelated paragraphs after a document's point, so that it is cut into more than one passage. */
const FILLER = "\n\n无关的段落。".repeat(300);

function settingsFor(chat: string, collections: string[]): Settings {
  return {
    ...DEFAULT_SETTINGS,
    knowledge: {
      ...DEFAULT_SETTINGS.knowledge,
      collections: [],
      chatCollections: { [chat]: collections },
      search: { ...DEFAULT_SETTINGS.knowledge.search, readWholeTokens: 0, parentTokens: 0, neighbours: 0 },
      autoRecall: { ...DEFAULT_SETTINGS.knowledge.autoRecall, enabled: true },
    },
  };
}

describe("knowledge tools", () => {
  it("no knowledge tool but the admin's lets the model name a scope or a collection", ({ expect }) => {
    const all = defaultTurnRegistry().tools.filter((t) => /^(kb_|context_)/.test(t.spec.name));
    const tools = all.filter((t) => !t.requiresAdmin);
    expect(tools.map((t) => t.spec.name)).toEqual(["kb_search", "context_read"]);
    expect(all.filter((t) => t.requiresAdmin).map((t) => t.spec.name)).toEqual(["kb_manage"]);
    for (const tool of tools) {
      const props = Object.keys((tool.spec.parameters as { properties: Record<string, unknown> }).properties);
      expect(props.some((p) => /scope|collection|source|chat/i.test(p))).toBe(false);
    }
  });

  it("kb_search reads only the chat's collections and context_read refuses others", async ({ expect }) => {
    const mine = await collectionWith("mine", [
      { name: "a.md", content: `# 枫丹\n\n## 水神\n\n芙宁娜是枫丹的水神。${FILLER}` },
    ]);
    const theirs = await collectionWith("theirs", [
      { name: "b.md", content: `# 枫丹\n\n那维莱特是枫丹的审判官，水神的秘密。${FILLER}` },
    ]);
    const chat = `qq:group:${crypto.randomUUID().slice(0, 8)}`;
    const ctx = context(chat, settingsFor(chat, [mine]));

    const found = await kbSearchTool.run({ query: "枫丹的水神" }, ctx, services);
    expect(found.ok).toBe(true);
    expect(found.content).toContain("芙宁娜");
    expect(found.content).not.toContain("那维莱特");
    const nodeId = /#(n_[0-9a-f]+)/.exec(found.content)?.[1];
    expect(nodeId).toBeDefined();

    const parents = await contextReadTool.run({ node_id: nodeId, mode: "parents" }, ctx, services);
    expect(parents.content).toContain("水神");
    expect(parents.content).toContain("document");

    const other = await env.DB.prepare(
      "SELECT node_id FROM nodes WHERE scope_id = ?1 AND node_type = 'passage' LIMIT 1",
    )
      .bind(theirs)
      .first<{ node_id: string }>();
    const refused = await contextReadTool.run({ node_id: other?.node_id }, ctx, services);
    expect(refused).toEqual({ ok: false, content: "没有这个节点，或当前聊天不能读取它。" });

    const recalled = await knowledgeRecall.collect(
      context(chat, settingsFor(chat, [mine]), "枫丹的水神芙宁娜"),
      services,
    );
    // The passage is longer than the recall budget (400 tokens): it comes back cut to fit.
    expect(recalled?.items).toHaveLength(1);
    expect(recalled?.items[0]?.text.startsWith("芙宁娜是枫丹的水神。")).toBe(true);
    expect(recalled?.items[0]?.text.endsWith("…")).toBe(true);
    const nothing = await knowledgeRecall.collect(
      context(chat, settingsFor(chat, [mine]), "今天天气怎么样"),
      services,
    );
    expect(nothing).toBeNull();
  });

  it("below the relevance floor kb_search and the recall answer nothing, and the tool says so", async ({
    expect,
  }) => {
    const name = await collectionWith("floor", [
      { name: "a.md", content: `# 状态管理\n\n## 简单状态\n\n用响应式 API 做简单的状态管理。${FILLER}` },
      { name: "b.md", content: `# 组件\n\n组件可以复用，状态放在组件里。${FILLER}` },
    ]);
    const chat = `qq:group:${crypto.randomUUID().slice(0, 8)}`;
    const base = settingsFor(chat, [name]);
    const floored: Settings = {
      ...base,
      knowledge: {
        ...base.knowledge,
        search: { ...base.knowledge.search, relevanceFloor: 0.5 },
        autoRecall: { ...base.knowledge.autoRecall, relevanceFloor: 0.5, minCoverage: 0 },
      },
    };
    // "storetorefs" and "pinia" occur nowhere in the collection: they carry most of the weight.
    const question = "pinia 的 storetorefs 状态";
    const unfloored: Settings = {
      ...base,
      knowledge: { ...base.knowledge, search: { ...base.knowledge.search, relevanceFloor: 0 } },
    };
    const open = await kbSearchTool.run({ query: question }, context(chat, unfloored), services);
    expect(open.content).toContain("简单状态");
    const none = await kbSearchTool.run({ query: question }, context(chat, floored), services);
    expect(none).toEqual({
      ok: true,
      content: `知识库（${name}）中没有回答这个问题的内容；不要引用知识库作答，可以如实说明文档里没有。`,
      marked: false,
    });
    expect(await knowledgeRecall.collect(context(chat, floored, question), services)).toBeNull();
    // A question the collection does answer passes the same floor.
    const answered = await kbSearchTool.run({ query: "简单状态管理" }, context(chat, floored), services);
    expect(answered.content).toContain("用响应式 API 做简单的状态管理");
  });

  it("the prompt lists only the chat's readable collections, with document counts and titles", async ({
    expect,
  }) => {
    const mine = uniqueName("cat");
    const theirs = uniqueName("hidden");
    await createCollection(mine);
    await createCollection(theirs);
    await upload(mine, [
      { name: "a.md", content: "# 计算属性\n\n缓存。" },
      { name: "b.md", content: "# 侦听器\n\n回调。" },
    ]);
    await upload(theirs, [{ name: "c.md", content: "# 秘密\n\n不可见。" }]);
    const chat = `qq:group:${crypto.randomUUID().slice(0, 8)}`;
    const section = await knowledgeCatalogue.collect(context(chat, settingsFor(chat, [mine])), services);
    expect(section?.title).toBe("可以用 kb_search 检索的知识库");
    expect(section?.items.map((i) => i.text)).toEqual([`${mine}：2 篇文档，如 计算属性、侦听器`]);
    const none = await knowledgeCatalogue.collect(context(chat, settingsFor(chat, [])), services);
    expect(none).toBeNull();
  });
  it("a follow-up is searched as the chat model rewrote it, the call recorded with the turn; offline, fused", async ({
    expect,
  }) => {
    const name = await collectionWith("rewrite", [
      { name: "a.md", content: `# API\n\n## 实例上限\n\nKeepAlive 的 max 限制实例数。${FILLER}` },
      {
        name: "b.md",
        content: `# 组件\n\n## 保留状态\n\n切换时保留组件状态，最多缓存几个由浏览器决定。${FILLER}`,
      },
    ]);
    const chat = `qq:group:${crypto.randomUUID().slice(0, 8)}`;
    const base = context(chat, settingsFor(chat, [name]), "那它最多缓存几个？");
    // Only the rewrite names KeepAlive's max: the question and the earlier turn share no word with a.md.
    const ctx: TurnContext = {
      ...base,
      recent: [{ role: "user", name: null, text: "那个切换时保留组件状态的内置组件", ts: Date.now() }],
    };
    const model = new ScriptedChatModel([
      { text: "KeepAlive max 缓存实例数" },
      { text: "KeepAlive max 缓存实例数" },
    ]);
    const recorded: UsageRecord[] = [];
    const live: TurnServices = {
      ...services,
      model,
      after: () => new Promise<void>(() => {}),
      usage: { record: (u) => recorded.push(u), spent: () => recorded },
    };
    const found = await kbSearchTool.run({ query: "那它最多缓存几个？" }, ctx, live);
    expect(found.content).toContain("KeepAlive 的 max");
    const recalled = await knowledgeRecall.collect(ctx, live);
    expect(recalled?.items.map((i) => i.text).join("")).toContain("KeepAlive 的 max");
    expect(model.requests).toHaveLength(2);
    expect(recorded.map((u) => [u.purpose, u.chatKey, u.ok])).toEqual([
      ["kb-rewrite", chat, true],
      ["kb-rewrite", chat, true],
    ]);
    // The offline model never rewrites: the earlier turn is carried instead, and nothing is billed.
    const offline: TurnServices = { ...live, model: new OfflineChatModel() };
    recorded.length = 0;
    const fused = await kbSearchTool.run({ query: "那它最多缓存几个？" }, ctx, offline);
    expect(fused.content).toContain("保留组件状态");
    expect(fused.content).not.toContain("KeepAlive");
    expect(recorded).toEqual([]);
  });
});
