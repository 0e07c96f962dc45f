// Deleting the old D1 log after the move: nothing without the owner's confirmation, only chats
// whose copy was verified and whose object still reads its own log and holds their rows, and a
// chat whose D1 rows are gone is never sent back to D1 by a rollback.
import { env } from "cloudflare:workers";
import { D1LogMigrationLedger, D1LogPages } from "@src/adapters/d1/d1-log-migration";
import { deleteMigratedD1Rows } from "@src/composition/request/log-d1-deletion";
import { logMigrationService } from "@src/composition/request/log-migration-service";
import { type ChatLogObject, logMigrationStep } from "@src/composition/request/log-migration-step";
import { describe, it } from "vitest";
import {
  chatBeforeTheMove,
  chatMessage,
  d1Log,
  freshDeployment,
  groupKey,
  objectFromBeforeTheMove,
  objectLog,
  seedD1,
} from "../../support/log-migration";

const objectOf = (key: string): ChatLogObject => env.CHAT_SESSION.getByName(key);
const ledger = () => new D1LogMigrationLedger(env.DB);
const deletion = (confirm: boolean) =>
  deleteMigratedD1Rows(
    { db: env.DB, ledger: ledger(), object: objectOf, actor: "owner", now: () => Date.now() },
    confirm,
  );

async function migrate(): Promise<void> {
  const ports = { ledger: ledger(), pages: new D1LogPages(env.DB), object: objectOf, now: () => Date.now() };
  for (let i = 0; i < 20; i++)
    if ((await logMigrationStep(ports, { pageSize: 500, maxRows: 5000, maxMs: 20_000, maxChats: 50 })).done)
      return;
  throw new Error("the copy did not finish");
}

describe("deleting the D1 log of migrated chats", () => {
  it("deletes nothing unconfirmed, then only verified chats held by their objects; rollback leaves them", async ({
    expect,
  }) => {
    await freshDeployment();
    const moved = await chatBeforeTheMove(30);
    const stillD1 = groupKey();
    await migrate();
    expect(await objectOf(moved).logHome()).toBe("object");
    // A chat whose copy has not started (its D1 rows arrive after the run) is not deletable.
    await seedD1([chatMessage(stillD1, 1), chatMessage(stillD1, 2)]);
    await objectFromBeforeTheMove(stillD1);

    const asked = await deletion(false);
    expect(asked).toMatchObject({ confirmed: false, rows: 30, left: 0 });
    expect(asked.chats.map((c) => c.chatKey)).toEqual([moved]);
    expect(await d1Log(moved)).toHaveLength(30);

    const done = await deletion(true);
    expect(done).toMatchObject({ confirmed: true, rows: 30 });
    expect(await d1Log(moved)).toEqual([]);
    expect(await objectLog(moved)).toHaveLength(30);
    expect(await d1Log(stillD1)).toHaveLength(2);
    // Asked again: nothing is left to delete.
    expect((await deletion(true)).chats).toEqual([]);

    // A rollback cannot send the deleted chat back to D1: it stays read from its object.
    const service = logMigrationService(env, { actor: "owner", via: "api" } as never);
    const back = await service.rollback();
    expect(back.rolledBack).toBe(0);
    expect(await objectOf(moved).logHome()).toBe("object");
  });

  it("keeps a verified chat whose object reads D1 again or holds fewer rows than D1", async ({ expect }) => {
    await freshDeployment();
    const chat = await chatBeforeTheMove(5);
    await migrate();
    // Its object is sent back to D1 behind the ledger's back: the check before deleting sees it.
    await env.CHAT_SESSION.getByName(chat).resetLogHome();
    const done = await deletion(true);
    expect(done.rows).toBe(0);
    expect(done.chats).toMatchObject([{ chatKey: chat, outcome: "kept" }]);
    expect(done.chats[0]?.reason).toMatch(/D1/);
    expect(await d1Log(chat)).toHaveLength(5);
  });
});
