import { env } from "cloudflare:workers";
import { describe, it } from "vitest";
import { knowledgeAccess } from "../../src/composition/knowledge-services";
import { defaultTurnRegistry } from "../../src/domain/agent/default-turn-registry";
import { knowledgeRecall } from "../../src/domain/agent/knowledge-recall";
import { OfflineChatModel } from "../../src/domain/agent/offline-chat-model";
import { contextReadTool, kbSearchTool } from "../../src/domain/agent/tools/knowledge-tools";
import type { TurnContext } from "../../src/domain/agent/turn-context";
import type { TurnServices } from "../../src/domain/agent/turn-services";
import { DEFAULT_SETTINGS, type Settings } from "../../src/domain/config/settings";
import { discardAudit } from "../../src/domain/shared/audit";
import { systemClock } from "../../src/domain/shared/clock";
import { messageEvent } from "../fakes/inbound";
import { turnPorts } from "../fakes/turn-ports";
import { createCollection, uniqueName, upload } from "../support/knowledge-api";

function context(chat: string, settings: Settings, text = "你好"): TurnContext {
  const event = messageEvent({ chat, text });
  return {
    event,
    chat: event.chat,
    sender: event.sender,
    identity: null,
    text,
    recent: [],
    settings,
    now: Date.now(),
  };
}

const services: TurnServices = {
  ...turnPorts({ model: new OfflineChatModel(), clock: systemClock }),
  audit: discardAudit,
  knowledge: knowledgeAccess(env),
};

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
    const mine = uniqueName("mine");
    const theirs = uniqueName("theirs");
    await createCollection(mine);
    await createCollection(theirs);
    const filler = "\n\n无关的段落。".repeat(300);
    await upload(mine, [{ name: "a.md", content: `# 枫丹\n\n## 水神\n\n芙宁娜是枫丹的水神。${filler}` }]);
    await upload(theirs, [
      { name: "b.md", content: `# 枫丹\n\n那维莱特是枫丹的审判官，水神的秘密。${filler}` },
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
});
