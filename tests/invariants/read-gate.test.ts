// Own file: identity and a chat domain are set through the stored settings, which every test of
// a file shares. Every read of nodes goes through one gate
// (docs/invariants.md#one-read-gate): a chat's summaries and messages reach its sibling chats at
// `public` only, whichever path reads them.
import { beforeAll, describe, it } from "vitest";
import { uid as idOf } from "../support/identity";
import { storeIdentity } from "../support/identity-settings";
import { uid } from "../support/memory";
import { summary } from "../support/private-material";
import { registerChat } from "../support/sessions";
import { toolTurn } from "../support/turns";

const run = uid().slice(0, 6);
const GROUP = `qq:group:${idOf("G")}`;
const SIBLING = `qq:group:${idOf("S")}`;
const MEMBER = idOf("M");
const MEMBER_P = idOf("MP");

beforeAll(async () => {
  await storeIdentity(
    { people: [], admins: [], chatDomains: { [`team${run}`]: [GROUP, SIBLING, `qq:private:${MEMBER_P}`] } },
    { memory: { dreaming: { enabled: false } } },
  );
  await registerChat(GROUP, Date.now(), "登山群");
  await registerChat(SIBLING, Date.now(), "爬山群");
});

describe("a sibling chat's summaries are read at public only", () => {
  it("recall_cross_chat never returns a sibling group's secret_like or private daily summary", async ({
    expect,
  }) => {
    const tag = uid();
    const hidden = {
      secret: `隔壁群摘要 ${tag}：有人说了银行卡尾号和病历号`,
      private: `隔壁群摘要 ${tag}：私下的离职打算`,
    };
    const open = `隔壁群摘要 ${tag}：周六爬山路线`;
    await summary(SIBLING, hidden.secret, "secret_like");
    await summary(SIBLING, hidden.private, "private");
    await summary(SIBLING, open, "public");
    const query = `${tag} 摘要 银行卡 病历 离职 爬山 路线`;
    for (const [chat, sender] of [
      [GROUP, MEMBER],
      [`qq:private:${MEMBER_P}`, MEMBER_P],
    ] as const) {
      const { answers, received } = await toolTurn(chat, sender, [
        { name: "recall_cross_chat", args: { query, limit: 20 } },
      ]);
      expect({
        chat,
        secret: received.includes(hidden.secret),
        private: received.includes(hidden.private),
      }).toEqual({ chat, secret: false, private: false });
      // Control: the sibling's public summary is read.
      expect(answers[0]).toContain(open);
    }
  });
});
