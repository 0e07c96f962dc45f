// A small collection is ranked like a large one (docs/decisions/0260-small-collections-are-ranked.md):
// with the default settings, a collection far below any size threshold answers the passage the
// question names first, and nothing for a question it does not answer, through the admin API
// and the kb_search tool alike. It used to come back whole, in reading order, for any question.
import { env } from "cloudflare:workers";
import { kbSearchTool } from "@src/domain/agent/tools/knowledge-tools";
import type { TurnContext } from "@src/domain/agent/turn-context";
import { DEFAULT_SETTINGS } from "@src/domain/config/settings";
import { beforeAll, describe, it } from "vitest";
import { messageEvent } from "../../fakes/inbound";
import {
  api,
  createCollection,
  knowledgeTurnServices,
  uniqueName,
  upload,
} from "../../support/knowledge-api";
import { turnContext } from "../../support/turn-context";

// The stored settings are the defaults: what an owner who never touched knowledge.search gets.
beforeAll(async () => {
  await env.DB.prepare("INSERT OR REPLACE INTO settings (key, value, updated_at) VALUES ('config', ?1, ?2)")
    .bind("{}", Date.now())
    .run();
});

const RULES = [
  "# 群规",
  "## 发言",
  "禁止刷屏，每分钟不超过五条消息。",
  "## 广告",
  "发广告的人直接移出群聊，不做警告。",
].join("\n\n");
const TRIP = [
  "# 周末活动",
  "## 集合",
  "周六早上八点在地铁站东口集合，迟到不等。",
  "## 装备",
  "带好雨衣和登山杖，山上可能下雨。",
].join("\n\n");

type Item = { text: string };

async function kbSearch(query: string, collection: string): Promise<Item[]> {
  const res = await api("/api/kb/search", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, collections: [collection] }),
  });
  if (res.status !== 200) throw new Error(`search answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { items: Item[] }).items;
}

async function smallCollection(): Promise<string> {
  const name = uniqueName("small");
  await createCollection(name);
  await upload(name, [
    { name: "rules.md", content: RULES },
    { name: "trip.md", content: TRIP },
  ]);
  return name;
}

describe("a small collection, default settings", () => {
  it("POST /api/kb/search ranks the passage asked about first", async ({ expect }) => {
    const name = await smallCollection();
    const items = await kbSearch("周六几点集合？", name);
    expect(items[0]?.text).toContain("八点");
    // Ranked, not the collection in reading order: the rules document comes first there.
    expect(items[0]?.text).not.toContain("刷屏");
  });

  it("POST /api/kb/search answers nothing for a question the collection does not answer", async ({
    expect,
  }) => {
    const name = await smallCollection();
    expect(await kbSearch("Kubernetes 的 Pod 怎么扩容？", name)).toEqual([]);
  });

  it("the kb_search tool says nothing was found instead of handing the model the whole collection", async ({
    expect,
  }) => {
    const name = await smallCollection();
    const chat = `qq:group:${crypto.randomUUID().slice(0, 8)}`;
    const settings = {
      ...DEFAULT_SETTINGS,
      knowledge: { ...DEFAULT_SETTINGS.knowledge, collections: [], chatCollections: { [chat]: [name] } },
    };
    const event = messageEvent({ chat, text: "查一下" });
    const ctx: TurnContext = turnContext(event, {
      text: "查一下",
      settings,
      now: Date.now(),
    });
    const services = knowledgeTurnServices();
    const unrelated = await kbSearchTool.run({ query: "Kubernetes 的 Pod 怎么扩容？" }, ctx, services);
    expect(unrelated.content).not.toContain("刷屏");
    expect(unrelated.content).not.toContain("集合");
    const asked = await kbSearchTool.run({ query: "发广告会怎么样" }, ctx, services);
    expect(asked.content).toContain("移出群聊");
    expect(asked.content).not.toContain("登山杖");
  });
});
