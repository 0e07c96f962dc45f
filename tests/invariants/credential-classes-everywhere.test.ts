/**
 * Every credential class of the corpus, and every personal-number class, through every carrier
 * (docs/invariants.md#credentials-are-never-stored-in-memory): QQ and OneBot webhooks (text,
 * segments, raw_message, the sender's display name and the group's name), `/remember`, a
 * model that writes it with memory_write and says it in its reply, dreaming that proposes it
 * as a memory, an admin who types it as a session alias or a knowledge file name. Then every
 * D1 table and every chat object's storage is read whole: the value is in none of them, and
 * the provider never received it.
 */
import { env, exports } from "cloudflare:workers";
import { toChatCompletionParams } from "@src/adapters/openai/chat-completion-request";
import { chatObjectServices } from "@src/composition/chat-object/chat-object-services";
import type { ModelRequest, ModelResponse } from "@src/domain/model/chat-model";
import { afterEach, beforeAll, describe, it, vi } from "vitest";
import { ScriptedChatModel } from "../fakes/scripted-chat-model";
import { CREDENTIAL_SAMPLES, type CredentialSample } from "../support/credential-corpus";
import { say } from "../support/credential-paths";
import { ADMIN, api, createCollection, uniqueName, upload } from "../support/knowledge-api";
import { uid } from "../support/memory";
import { atBot, oneBotMessage, SELF, text } from "../support/onebot-events";
import { signedOneBotRequest } from "../support/onebot-signing";
import { c2cBody, groupAtBody, turnDone } from "../support/qq-events";
import { settled, storedAnywhere } from "../support/stored-anywhere";
import { storeSettings } from "../support/stored-settings";
import { eventually } from "../support/wait";

beforeAll(async () => {
  await storeSettings(env, { memory: { dreaming: { afterTurns: 2 } } });
});
afterEach(() => vi.restoreAllMocks());

/** Per class, the first sample whose value is long enough to be looked for in storage. */
function samples(): CredentialSample[] {
  const out = new Map<string, CredentialSample>();
  for (const s of CREDENTIAL_SAMPLES) {
    if (s.label !== "credential" || s.messages || out.has(s.class)) continue;
    if ((s.secret ?? "").replace(/\s/g, "").length >= 6) out.set(s.class, s);
  }
  return [...out.values()];
}

/** What must be found nowhere: the value, and for a seed phrase four of its words in a row. */
const needlesOf = (s: CredentialSample) => [s.secret ?? ""];

const PERSONAL = new Set(["cn-id", "bank-card", "cn-mobile"]);

/**
 * The value as an admin would type it into a one-word name: a key or a number as it is, a
 * password after its keyword. Null for a seed phrase, which a name without spaces cannot hold.
 */
function typedName(s: CredentialSample): string | null {
  const value = (s.secret ?? "").replace(/\s+/g, "");
  if (s.words) return null;
  if (PERSONAL.has(s.class) || s.class === "provider-key" || s.class === "high-entropy") return value;
  return `密码:${value}`;
}

function scripted(text: string) {
  const calls = (req: ModelRequest): Partial<ModelResponse> =>
    req.jsonSchema
      ? {
          text: JSON.stringify({
            memories: [{ kind: "fact", text: `小明说 ${text}`, importance: 0.8, turn: 0 }],
            archive: [],
            summary: `今天聊了 ${text}`,
          }),
        }
      : req.messages.at(-1)?.role === "tool"
        ? { text: `好的，我记下了：${text}` }
        : {
            toolCalls: [
              { id: "w1", name: "memory_write", arguments: JSON.stringify({ text, kind: "fact" }) },
            ],
          };
  const model = new ScriptedChatModel(
    Array.from({ length: 40 }, () => async (req: ModelRequest) => calls(req)),
  );
  const real = chatObjectServices.create.bind(chatObjectServices);
  vi.spyOn(chatObjectServices, "create").mockImplementation((e) => ({ ...real(e), model }));
  return model;
}

const oneBotGroup = (group: number, user: number, messageId: number, t: string) =>
  oneBotMessage({
    kind: "group",
    group,
    groupName: t,
    user,
    messageId,
    segments: [atBot, text(` ${t}`)],
    rawMessage: `[CQ:at,qq=${SELF}] ${t}`,
    nickname: t,
    card: t,
  });

const random = (base: number) => base + Math.floor(Math.random() * 90_000_000);

describe("every credential and personal-number class is stored nowhere, whatever carries it", () => {
  it("covers every class of the corpus but the announced one, which has its own test", ({ expect }) => {
    const classes = new Set(CREDENTIAL_SAMPLES.filter((s) => s.label === "credential").map((s) => s.class));
    classes.delete("announced");
    expect(new Set(samples().map((s) => s.class))).toEqual(classes);
  });

  it.for(samples().map((s) => [s.class, s] as const))(
    "%s: through the webhooks, /remember, memory_write, the reply, dreaming and the admin's names",
    { timeout: 120_000 },
    async ([, sample], { expect }) => {
      const model = scripted(sample.text);
      const user = `U${uid()}`;
      const privateKey = `qq:private:${user}`;
      const remembered = await say(c2cBody({ user, text: `/remember ${sample.text}` }), privateKey);
      expect(remembered.replies[0]?.text).toMatch(/我不会记下来/);
      const turn = await say(c2cBody({ user, text: sample.text }), privateKey);
      for (const r of turn.replies) expect(r.text).not.toContain(sample.secret);
      await say(c2cBody({ user, text: "你记得我刚才说的吗" }), privateKey);

      const group = `G${uid()}`;
      const groupKey = `qq:group:${group}`;
      await say(groupAtBody({ group, member: `M${uid()}`, text: sample.text }), groupKey);

      const oneBotGroupId = random(700_000_000);
      const messageId = random(1);
      const onebot = oneBotGroup(oneBotGroupId, random(20_000), messageId, sample.text);
      expect(
        (await exports.default.fetch(await signedOneBotRequest("https://bot.test/webhook/onebot", onebot)))
          .status,
      ).toBe(204);
      const onebotKey = `onebot:group:${oneBotGroupId}`;
      await turnDone(onebotKey, `onebot:${SELF}:msg:${messageId}`, 20_000);

      // An admin types it as a session alias and as a knowledge file name: refused, nothing kept.
      const name = typedName(sample);
      if (name !== null) {
        const rename = await api(`/api/sessions/${encodeURIComponent(groupKey)}/rename`, {
          method: "POST",
          headers: { ...ADMIN, "content-type": "application/json" },
          body: JSON.stringify({ alias: name.slice(0, 40) }),
        });
        expect(rename.status).toBe(400);
        const collection = uniqueName("cred");
        await createCollection(collection);
        await upload(collection, [{ name: `${name}.md`, content: "# 说明\n\n正文" }]);
      }

      await settled(privateKey, { dreamed: true });
      // Dreaming ran over the two turns and its model proposed the value as a memory.
      await eventually(async () => {
        const runs = await env.DB.prepare("SELECT count(*) AS n FROM memory_runs WHERE chat_key = ?")
          .bind(privateKey)
          .first<{ n: number }>();
        return (runs?.n ?? 0) >= 1;
      }, 30_000);
      await settled(groupKey);
      await settled(onebotKey);
      // The model ran; what a provider would have received of each request (the adapters'
      // one builder) never held the value, though the model itself wrote it in its tool call.
      expect(model.requests.length).toBeGreaterThan(0);
      expect(JSON.stringify(model.requests.map(toChatCompletionParams))).not.toContain(sample.secret);
      expect(await storedAnywhere(needlesOf(sample))).toEqual([]);
    },
  );
});
