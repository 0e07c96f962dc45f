// The owner's copy of each chat's D1 log into its object, step by step: the copy lands identical
// (rows, marks, sessions, windows) and searchable, a step cut off after any call it makes is
// finished by the next ones with every row exactly once, a chat already at home in its object is
// skipped, and a page the object refuses marks the chat a mismatch and changes nothing there.
import { env } from "cloudflare:workers";
import { D1LogMigrationLedger, D1LogPages } from "@src/adapters/d1/d1-log-migration";
import {
  type ChatLogObject,
  type LogMigrationPorts,
  logMigrationStep,
  type StepBudget,
  type StepReport,
} from "@src/composition/request/log-migration-step";
import { chatMatchExpression } from "@src/domain/text/chat-search-tokens";
import { describe, it } from "vitest";
import {
  chatBeforeTheMove,
  chatMessage,
  chatMessages,
  d1Log,
  d1Trees,
  freshDeployment,
  groupKey,
  objectAfterTheMove,
  objectFromBeforeTheMove,
  objectLog,
  objectTrees,
  seedD1,
} from "../../support/log-migration";
import { objectWindowMatches } from "../../support/object-log";

const objectOf = (key: string): ChatLogObject => env.CHAT_SESSION.getByName(key);

function ports(object: (key: string) => ChatLogObject = objectOf): LogMigrationPorts {
  return {
    ledger: new D1LogMigrationLedger(env.DB),
    pages: new D1LogPages(env.DB),
    object,
    now: () => Date.now(),
  };
}

/** `inner` whose every call counts, and whose `cut`-th call throws once its work is done. */
function cutAfter(inner: LogMigrationPorts, cut: number) {
  let calls = 0;
  const counted = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(t, name, receiver) {
        const value = Reflect.get(t, name, receiver);
        if (typeof value !== "function") return value;
        return async (...args: unknown[]) => {
          const out = await Reflect.apply(value, t, args);
          calls++;
          if (calls === cut) throw new Error(`cut after call ${cut}`);
          return out;
        };
      },
    });
  const object = (key: string) => counted(pick(inner.object(key)));
  return {
    ports: { ...inner, ledger: counted(inner.ledger), pages: counted(inner.pages), object },
    calls: () => calls,
  };
}

async function untilDone(p: LogMigrationPorts, budget: StepBudget, most = 50): Promise<StepReport[]> {
  const reports: StepReport[] = [];
  for (let i = 0; i < most; i++) {
    const r = await logMigrationStep(p, budget);
    reports.push(r);
    if (r.done) return reports;
  }
  throw new Error("the copy did not finish");
}

const ledgerRow = (key: string) =>
  env.DB.prepare("SELECT last_seq, copied, d1_count, state, detail FROM log_migration WHERE chat_key = ?")
    .bind(key)
    .first<{ copied: number; d1_count: number; state: string; detail: string | null }>();

describe("the log migration step", () => {
  it("copies a chat of 1,200 messages identical and searchable, with its recall and privacy marks", async ({
    expect,
  }) => {
    await freshDeployment();
    const chat = groupKey();
    const messages = chatMessages(chat, 1200);
    messages[699] = chatMessage(chat, 700, "烧烤店的老板姓王");
    messages[299] = chatMessage(chat, 300, "撤回的秘密计划");
    messages[599] = { ...chatMessage(chat, 600), privateMarked: 2 };
    await seedD1(messages, [messages[299] as (typeof messages)[number]]);
    // The object was created before the move and has logged its last five messages itself since.
    await objectFromBeforeTheMove(chat, messages.slice(1195));
    const reports = await untilDone(ports(), { pageSize: 500, maxRows: 500, maxMs: 20_000, maxChats: 50 });
    expect(reports.length).toBeGreaterThan(2);
    const last = reports.at(-1);
    expect(last?.chats).toEqual({ total: 1, copying: 0, verified: 1, mismatch: 0, skipped: 0 });
    expect(last?.rows).toEqual({ copied: 1200, total: 1200 });
    const d1 = await d1Log(chat);
    expect(d1).toHaveLength(1200);
    expect(d1.filter((r) => r.recalled === 1).map((r) => r.message_id)).toEqual(["m300"]);
    expect(d1.filter((r) => r.private_marked === 2).map((r) => r.message_id)).toEqual(["m600"]);
    expect(await objectLog(chat)).toEqual(d1);
    expect(await objectTrees(chat)).toEqual(await d1Trees(chat));
    expect(await objectOf(chat).logHome()).toBe("object");
    expect(await ledgerRow(chat)).toMatchObject({ copied: 1200, d1_count: 1200, state: "verified" });
    const bbq = await objectWindowMatches(chat, chatMatchExpression(chat, "烧烤") ?? "");
    expect(bbq.length).toBeGreaterThan(0);
    expect(await objectWindowMatches(chat, chatMatchExpression(chat, "秘密") ?? "")).toEqual([]);
  });

  // One run per call a step makes, each on a fresh deployment: slow on a busy machine.
  it("cut off after any call it makes, the next steps finish the copy with every row exactly once", {
    timeout: 180_000,
  }, async ({ expect }) => {
    const budget = { pageSize: 3, maxRows: 100, maxMs: 20_000, maxChats: 50 };
    const world = async () => {
      await freshDeployment();
      const a = groupKey();
      const b = groupKey();
      const rowsA = chatMessages(a, 7);
      const rowsB = chatMessages(b, 4);
      await seedD1([...rowsA, ...rowsB], [rowsA[4] as (typeof rowsA)[number]]);
      await objectFromBeforeTheMove(a);
      await objectFromBeforeTheMove(b, rowsB.slice(2));
      return [a, b] as const;
    };
    // A clean run counts the calls a step makes; then one run cut after each of them.
    await world();
    const counting = cutAfter(ports(), 0);
    expect((await logMigrationStep(counting.ports, budget)).done).toBe(true);
    const calls = counting.calls();
    expect(calls).toBeGreaterThan(20);
    for (let cut = 1; cut <= calls; cut++) {
      const chats = await world();
      await expect(logMigrationStep(cutAfter(ports(), cut).ports, budget)).rejects.toThrow(/cut after/);
      await untilDone(ports(), { ...budget, maxRows: 3, maxChats: 1 });
      for (const [chat, n] of [
        [chats[0], 7],
        [chats[1], 4],
      ] as const) {
        expect(await objectLog(chat), `cut ${cut}`).toEqual(await d1Log(chat));
        expect(await ledgerRow(chat), `cut ${cut}`).toMatchObject({
          copied: n,
          d1_count: n,
          state: "verified",
        });
        expect(await objectOf(chat).logHome()).toBe("object");
      }
    }
  });

  it("two steps at once copy each row once and count each page once", async ({ expect }) => {
    await freshDeployment();
    const chat = await chatBeforeTheMove(40);
    const budget = { pageSize: 4, maxRows: 1000, maxMs: 20_000, maxChats: 50 };
    await Promise.all([logMigrationStep(ports(), budget), logMigrationStep(ports(), budget)]);
    await untilDone(ports(), budget);
    expect(await objectLog(chat)).toEqual(await d1Log(chat));
    expect(await ledgerRow(chat)).toMatchObject({ copied: 40, d1_count: 40, state: "verified" });
  });

  it("skips a chat whose object already reads its own whole log, and copies one whose object lacks D1's rows", async ({
    expect,
  }) => {
    await freshDeployment();
    const home = groupKey();
    const relayed = groupKey();
    const homeRows = chatMessages(home, 4);
    const relayedRows = chatMessages(relayed, 3);
    await seedD1([...homeRows, ...relayedRows]);
    await objectAfterTheMove(home, homeRows);
    // Rows relayed to a chat whose object never logged them: D1 alone has them.
    await objectAfterTheMove(relayed, []);
    const imported: string[] = [];
    const watching = (key: string): ChatLogObject => {
      const o = objectOf(key);
      const importLog: ChatLogObject["importLog"] = (rows) => {
        imported.push(key);
        return o.importLog(rows);
      };
      return { ...pick(o), importLog };
    };
    const [report] = await untilDone(ports(watching), {
      pageSize: 500,
      maxRows: 5000,
      maxMs: 20_000,
      maxChats: 50,
    });
    expect(report?.chats).toMatchObject({ total: 2, verified: 1, skipped: 1 });
    expect(imported).toEqual([relayed]);
    expect(await ledgerRow(home)).toMatchObject({ state: "skipped", copied: 0, d1_count: 4 });
    expect(await objectLog(relayed)).toEqual(await d1Log(relayed));
  });

  it("marks a chat whose page the object refuses a mismatch, and the object keeps nothing of it", async ({
    expect,
  }) => {
    await freshDeployment();
    const chat = groupKey();
    const wrong = groupKey();
    await seedD1(chatMessages(chat, 3));
    await objectFromBeforeTheMove(wrong);
    // The rows of `chat` sent to another chat's object.
    const report = await logMigrationStep(
      ports(() => objectOf(wrong)),
      { pageSize: 500, maxRows: 5000, maxMs: 20_000, maxChats: 50 },
    );
    expect(report.chats).toMatchObject({ total: 1, mismatch: 1 });
    expect(report.mismatches[0]?.detail).toContain(`belongs to ${chat}`);
    expect(await objectOf(wrong).logCount()).toBe(0);
    expect(await objectOf(wrong).logHome()).toBe("d1");
    expect(await ledgerRow(chat)).toMatchObject({ copied: 0, state: "mismatch" });
  });
});

/** The object's methods as plain functions (a stub's are not own properties to spread). */
function pick(o: ChatLogObject): ChatLogObject {
  return {
    logHome: () => o.logHome(),
    logCount: () => o.logCount(),
    importLog: (rows) => o.importLog(rows),
    finishImport: (n) => o.finishImport(n),
  };
}
