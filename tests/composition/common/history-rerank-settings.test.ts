// Own file: each test stores the settings it runs under. History search asks the read model to
// rerank its matches only when that model's `historyFusionWeight` is above 0; production's
// defaults set none, so a deployment that says nothing keeps the words' order and calls no model.
import { env } from "cloudflare:workers";
import { historySearch } from "@src/composition/common/history-search";
import { settingsCache } from "@src/composition/settings/settings-cache";
import { afterEach, describe, it, vi } from "vitest";
import { standInFor } from "../../support/fetch-stand-in";
import { seedLines } from "../../support/message-lines";
import { storeSettings } from "../../support/stored-settings";

const ENDPOINT = "https://embeddings.example/v1";
const newChat = () => `qq:group:${crypto.randomUUID()}`;

/** The read model as an OpenAI-compatible endpoint, at this history weight (none = unset). */
function readModel(historyFusionWeight?: number) {
  return {
    knowledge: {
      embeddings: {
        models: {
          probe: {
            provider: "openai-compatible",
            model: "probe",
            version: "1",
            dims: 8,
            baseUrl: ENDPOINT,
            ...(historyFusionWeight === undefined ? {} : { historyFusionWeight }),
          },
        },
        read: "probe",
        write: ["probe"],
      },
    },
  };
}

const UP = [1, 0, 0, 0, 0, 0, 0, 0];
const ACROSS = [0, 1, 0, 0, 0, 0, 0, 0];

/** Answers every embedding request: "带炭" texts and every question point one way, the rest the other. */
function embeddingEndpoint(status = 200) {
  const asked: string[][] = [];
  standInFor(`${ENDPOINT}/embeddings`, (init) => {
    const input = JSON.parse(String(init?.body)).input as string[];
    asked.push(input);
    if (status !== 200) return new Response("down", { status });
    const data = input.map((t, index) => ({
      index,
      embedding: asked.length === 1 || t.includes("带炭") ? UP : ACROSS,
    }));
    return Response.json({ data });
  });
  return asked;
}

async function twoSessions(): Promise<string> {
  const chat = newChat();
  // Far apart, so each is a match of its own; the words rank the first one first.
  await seedLines([
    { chat, id: "p0", minute: 0, text: "烧烤 烧烤 烧烤 周末" },
    { chat, id: "p1", minute: 600, text: "烧烤 带炭" },
  ]);
  return chat;
}

const search = (chat: string) =>
  historySearch(env).search({ chatKey: chat, reader: chat, text: "烧烤", limit: 2 });

afterEach(async () => {
  vi.restoreAllMocks();
  await env.DB.prepare("DELETE FROM settings WHERE key = 'config'").run();
  settingsCache.invalidate();
});

describe("history's rerank follows the read model's history weight", () => {
  it("calls no model and keeps the words' order under the defaults", async ({ expect }) => {
    const asked = embeddingEndpoint();
    const chat = await twoSessions();
    expect((await search(chat)).map((h) => h.text)).toEqual(["烧烤 烧烤 烧烤 周末", "烧烤 带炭"]);
    expect(asked).toEqual([]);
  });

  it("calls no model when the read model sets no history weight", async ({ expect }) => {
    await storeSettings(env, readModel());
    const asked = embeddingEndpoint();
    const chat = await twoSessions();
    expect((await search(chat))[0]?.text).toBe("烧烤 烧烤 烧烤 周末");
    expect(asked).toEqual([]);
  });

  it("reorders the matches by the read model at its history weight, shown only this chat's", async ({
    expect,
  }) => {
    await storeSettings(env, readModel(5));
    const asked = embeddingEndpoint();
    const chat = await twoSessions();
    await seedLines([{ chat: newChat(), id: "other", minute: 1, text: "烧烤 带炭 别的群" }]);
    expect((await search(chat))[0]?.text).toBe("烧烤 带炭");
    expect(asked[0]).toEqual(["烧烤"]);
    expect(asked.slice(1).flat().sort()).toEqual(["烧烤 烧烤 烧烤 周末", "烧烤 带炭"].sort());
  });

  it("keeps the words' order when the model fails", async ({ expect }) => {
    await storeSettings(env, readModel(5));
    const asked = embeddingEndpoint(503);
    const chat = await twoSessions();
    expect((await search(chat)).map((h) => h.text)).toEqual(["烧烤 烧烤 烧烤 周末", "烧烤 带炭"]);
    expect(asked.length).toBeGreaterThan(0);
  });
});
