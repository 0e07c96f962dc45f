// The turn's recall reads (mandatory block, memory recall, history recall) go to D1 together,
// one batch per wave: what the prompt may hold is exactly what the separate reads allowed —
// a person's private and secret_like items never reach a group turn, and another chat's
// memory and log never reach this chat's turn.
import { env } from "cloudflare:workers";
import { countingD1 } from "@src/adapters/d1/counting-d1";
import { chatObjectServices } from "@src/composition/chat-object/chat-object-services";
import { prepareTurn } from "@src/domain/agent/turn";
import type { TurnContext } from "@src/domain/agent/turn-context";
import type { TurnServices } from "@src/domain/agent/turn-services";
import { describe, it } from "vitest";
import { MEMBER, withIdentity } from "../../fakes/identity-settings";
import { messageEvent } from "../../fakes/inbound";
import { newMemory, seedMemory, uid } from "../../support/memory";
import { logEvents } from "../../support/private-material";
import { turnContext } from "../../support/turn-context";

const logLines = (chat: string, lines: readonly string[], sender = "OTHER"): Promise<void> =>
  logEvents(
    lines.map((text, i) => ({
      chat,
      text,
      sender,
      name: sender,
      ts: Date.now() - 86_400_000 + i,
      id: `${chat}#${i}`,
    })),
  );

/** The prompt a turn of `member` in `chat` would send, built over a counting D1. */
async function promptOf(chat: string, text: string, person: string | null) {
  const counter = countingD1(env.DB, "local");
  const services = chatObjectServices.create({ ...env, DB: counter.db });
  const event = messageEvent({ chat, text, sender: MEMBER.split(":").at(-1) ?? "M" });
  const settings = withIdentity({
    people:
      person === null
        ? []
        : [{ id: person, displayName: "爱丽丝", accounts: [MEMBER as `qq:user:${string}`] }],
  });
  const ctx: TurnContext = turnContext(event, {
    identity:
      person === null ? null : { enabled: true, account: MEMBER as never, personId: person, declared: true },
    text,
    settings,
    now: Date.now(),
  });
  const turnServices = {
    ...services,
    session: { reset: async () => {} },
    relay: services.relayLoggingTo(() => {}),
    audit: { record: () => {} },
  } as unknown as TurnServices;
  const prepared = await prepareTurn(ctx, turnServices, services.registry);
  return { text: prepared.messages.map((m) => m.content).join("\n"), bill: counter.bill() };
}

describe("a turn's batched recall", () => {
  it("never brings a person's private or secret_like memory into a group turn", async ({ expect }) => {
    const tag = `猫咪${uid()}`;
    const person = `p${uid()}`;
    const group = `qq:group:G${uid()}`;
    await seedMemory([
      newMemory(`person:${person}`, `${tag} 的私事：在看病`, {
        sensitivity: "private",
        sensitivitySource: "dream",
      }),
      newMemory(`person:${person}`, `${tag} 的密码是 hunter2`, {
        sensitivity: "secret_like",
        sensitivitySource: "explicit",
      }),
      newMemory(`person:${person}`, `${tag} 喜欢橘猫`),
      newMemory(`chat:${group}`, `${tag} 群里决定周六聚餐`),
    ]);
    const { text, bill } = await promptOf(group, `${tag} 怎么样了`, person);
    // The reads went out together: fewer round trips than statements.
    expect(bill.roundTrips).toBeLessThan(bill.statements);
    expect(bill.sql.some((s) => s.startsWith("(batch) "))).toBe(true);
    expect(text).toContain(`${tag} 群里决定周六聚餐`);
    expect(text).toContain(`${tag} 喜欢橘猫`);
    expect(text).not.toContain("在看病");
    expect(text).not.toContain("hunter2");
  });

  it("never brings another chat's memory or log lines into this chat's turn", async ({ expect }) => {
    const tag = `火锅${uid()}`;
    const mine = `qq:group:M${uid()}`;
    const other = `qq:group:O${uid()}`;
    await seedMemory([
      newMemory(`chat:${other}`, `${tag} 别的群的安排`),
      newMemory(`chat:${mine}`, `${tag} 本群的安排`),
    ]);
    await logLines(other, [`${tag} 别的群聊过的话`, `${tag} 别的群又聊过的话`]);
    await logLines(mine, [`${tag} 本群聊过的话`]);
    const { text, bill } = await promptOf(mine, `${tag} 还去吗`, null);
    // Two waves: cluster lookup and history FTS; then everything that needed their answers
    // (mandatory block, memory recall, the history hit's context turns).
    expect(bill.roundTrips).toBeLessThanOrEqual(2);
    expect(text).toContain(`${tag} 本群的安排`);
    expect(text).toContain(`${tag} 本群聊过的话`);
    expect(text).not.toContain("别的群");
  });
});
