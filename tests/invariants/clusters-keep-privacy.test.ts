// Clusters under attack (docs/sessions.md#clusters): linking makes a chat's memory readable
// from the other chats of its cluster, unlinking hides it again at once, and a person's
// private and secret_like items never reach a group turn, linked or not — in the context
// preview (mandatory block and automatic recall) and through memory_search in a real turn.
import { env } from "cloudflare:workers";
import { D1MemoryStore } from "@src/adapters/d1/d1-memory-store";
import { D1ProfileStore } from "@src/adapters/d1/d1-profile-store";
import { sessionRegistry } from "@src/composition/common/forgetting-session-registry";
import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { runTurn } from "@src/domain/agent/turn";
import { DEFAULT_SETTINGS } from "@src/domain/config/settings";
import { silentLogger } from "@src/domain/kernel/logger";
import { sessionIdOf } from "@src/domain/sessions/session-id";
import { describe, it } from "vitest";
import { messageEvent } from "../fakes/inbound";
import { ScriptedChatModel } from "../fakes/scripted-chat-model";
import { turnPorts } from "../fakes/turn-ports";
import { newMemory, seedMemory, uid } from "../support/memory";
import { everything, preview } from "../support/preview";
import { registerChat, sessionAudit, sessionsApi } from "../support/sessions";
import { turnContext } from "../support/turn-context";

/** A group, another group and a member's private chat, each with its own memory. */
async function world() {
  const tag = uid();
  const group = `qq:group:G${tag}`;
  const other = `qq:group:H${tag}`;
  const user = `U${tag}`;
  const priv = `qq:private:${user}`;
  for (const chat of [group, other, priv]) await registerChat(chat);
  await seedMemory([
    newMemory(`chat:${other}`, `隔壁群的暗号是蓝鲸${tag}`),
    newMemory(`chat:${priv}`, `他公开说过喜欢蓝鲸标本${tag}`),
    // High importance: the mandatory block would take them if anything let it.
    newMemory(`chat:${priv}`, `他私下说蓝鲸病历在医院${tag}`, {
      importance: 0.95,
      sensitivity: "private",
      sensitivitySource: "explicit",
    }),
    newMemory(`chat:${priv}`, `他的蓝鲸银行卡密保是${tag}`, {
      importance: 0.95,
      sensitivity: "secret_like",
      sensitivitySource: "dream",
    }),
  ]);
  return { tag, group, other, priv, user };
}

const groupPreview = (w: { group: string; user: string }) =>
  preview({ chat: w.group, sender: w.user, text: "蓝鲸" });

describe("cluster links", () => {
  it("a link makes the other chat's memory readable, and unlink hides it again at once", async ({
    expect,
  }) => {
    const w = await world();
    expect(everything(await groupPreview(w))).not.toContain(`暗号是蓝鲸${w.tag}`);

    const linked = await sessionsApi(`/${w.group}/link`, { with: w.other });
    expect(linked.status).toBe(200);
    const after = await groupPreview(w);
    expect(after.scopes.readable).toContain(`chat:${w.other}`);
    expect(after.recalled.map((r) => r.text)).toContain(`隔壁群的暗号是蓝鲸${w.tag}`);
    // The item keeps its own scope: nothing was copied into the group.
    expect(after.recalled.find((r) => r.text.includes("暗号"))?.scope).toBe(`chat:${w.other}`);
    const copies = await env.DB.prepare(
      "SELECT count(*) AS n FROM nodes WHERE scope_id = ?1 AND raw_text LIKE '%暗号%'",
    )
      .bind(w.group)
      .first<{ n: number }>();
    expect(copies?.n).toBe(0);

    const unlinked = await sessionsApi(`/${sessionIdOf(w.other)}/unlink`, {});
    expect(unlinked.status).toBe(200);
    const gone = await groupPreview(w);
    expect(gone.scopes.readable).not.toContain(`chat:${w.other}`);
    expect(everything(gone)).not.toContain(`暗号是蓝鲸${w.tag}`);
  });

  it("a private→group link without confirmation is refused, changes nothing, and is audited", async ({
    expect,
  }) => {
    const w = await world();
    const refused = await sessionsApi<{ error: string; field: string; reason: string }>(`/${w.group}/link`, {
      with: w.priv,
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: "invalid", field: "yes" });
    // The answer names whose memory the group would read.
    expect(refused.body.reason).toContain(`qq:user:${w.user}`);
    const info = await sessionsApi<{ session: { clusterId: string; sessionId: string } }>(`/${w.priv}`);
    expect(info.body.session.clusterId).toBe(info.body.session.sessionId);
    expect(everything(await groupPreview(w))).not.toContain(`喜欢蓝鲸标本${w.tag}`);
    const audit = (await sessionAudit("session.link")).filter((r) => r.target === `${w.group} ${w.priv}`);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: "admin-api", detail: { outcome: "refused", via: "api" } });
    expect(String(audit[0]?.detail.command)).toContain(`/api/sessions/${w.group}/link`);
  });

  it("the other direction (group into a private chat's cluster) needs confirmation too", async ({
    expect,
  }) => {
    const w = await world();
    const refused = await sessionsApi(`/${w.priv}/link`, { with: w.group });
    expect(refused.status).toBe(400);
  });

  it("a confirmed private→group link gives the group public items only: never private or secret_like", async ({
    expect,
  }) => {
    const w = await world();
    const linked = await sessionsApi<{ exposures: { account: string }[] }>(`/${w.group}/link`, {
      with: w.priv,
      confirm: true,
    });
    expect(linked.status).toBe(200);
    expect(linked.body.exposures.map((e) => e.account)).toEqual([`qq:user:${w.user}`]);

    const seen = await groupPreview(w);
    expect(seen.recalled.map((r) => r.text)).toContain(`他公开说过喜欢蓝鲸标本${w.tag}`);
    expect(everything(seen)).not.toContain(`病历在医院${w.tag}`);
    expect(everything(seen)).not.toContain(`银行卡密保是${w.tag}`);

    // memory_search in a real turn of the group, over D1 and the registry's links.
    const memory = new D1MemoryStore(env.DB);
    const links = sessionRegistry(env, async () => DEFAULT_SETTINGS);
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { id: "s1", name: "memory_search", arguments: JSON.stringify({ query: "蓝鲸 病历 银行卡" }) },
        ],
      },
      { text: "好" },
    ]);
    const event = messageEvent({ chat: w.group, text: "蓝鲸 病历 银行卡", sender: w.user, name: "他" });
    await runTurn(
      turnContext(event, {
        text: "蓝鲸 病历 银行卡",
        settings: DEFAULT_SETTINGS,
        now: Date.now(),
      }),
      turnPorts({
        model,
        memory: { store: memory, index: memory, links, profiles: new D1ProfileStore(env.DB) },
      }),
      defaultTurnRegistry(silentLogger),
    );
    const requests = JSON.stringify(model.requests);
    expect(requests).toContain(`喜欢蓝鲸标本${w.tag}`);
    expect(requests).not.toContain(`病历在医院${w.tag}`);
    expect(requests).not.toContain(`银行卡密保是${w.tag}`);

    // The private chat itself still reads everything of its own.
    const own = await preview({ chat: w.priv, text: "蓝鲸 病历 银行卡" });
    expect(everything(own)).toContain(`他私下说蓝鲸病历在医院${w.tag}`);

    // Whose private memory the group reads: the function the Identity page uses.
    const readers = await sessionsApi<{ exposures: { privateChat: string }[] }>(
      `/${w.group}/private-readers`,
    );
    expect(readers.body.exposures.map((e) => e.privateChat)).toEqual([w.priv]);
  });
});
