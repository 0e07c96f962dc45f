// What the group-turn-*.test.ts invariants share: two declared people, an admin and an
// undeclared member with their accounts, the chats they speak in, the stored settings that
// declare them, and one run's world of private material with its public controls.
import type { TurnPreview } from "@src/domain/agent/turn-preview";
import { uid as idOf } from "./identity";
import { declared, qqUsers, storeIdentity } from "./identity-settings";
import { newMemory, seedMemory, uid } from "./memory";
import { logLines, summary } from "./private-material";
import { registerChat } from "./sessions";
import type { ToolCallSpec } from "./turns";

export const run = uid().slice(0, 6);
export const ALICE = `alice${run}`;
export const BOB = `bob${run}`;
export const ALICE_G = idOf("ALICEG");
export const ALICE_P = idOf("ALICEP");
export const ALICE_GUILD = idOf("ALICEX");
/** A OneBot QQ number: the same account in groups and in the private chat. */
export const ALICE_QQ = `9${crypto.getRandomValues(new Uint32Array(1))[0]}`;
export const BOB_G = idOf("BOBG");
export const BOB_P = idOf("BOBP");
export const CAROL = idOf("CAROL");
export const ADMIN_G = idOf("ADMING");
export const ADMIN_P = idOf("ADMINP");

export const GROUP = `qq:group:${idOf("G")}`;
export const SIBLING = `qq:group:${idOf("S")}`;
export const CHANNEL = `qq:channel:${idOf("C")}`;
export const DM = `qq:dm:${idOf("D")}`;
export const ALICE_PRIVATE = `qq:private:${ALICE_P}`;
export const ADMIN_PRIVATE = `qq:private:${ADMIN_P}`;

export async function settings(softScope = false) {
  await storeIdentity(
    {
      people: [
        declared(ALICE, "爱丽丝", [...qqUsers(ALICE_G, ALICE_P, ALICE_GUILD), `onebot:user:${ALICE_QQ}`]),
        declared(BOB, "鲍勃", qqUsers(BOB_G, BOB_P)),
      ],
      admins: qqUsers(ADMIN_G, ADMIN_P),
      // The person's private chat shares a domain with the groups: only the private-chat
      // rule of the cross-chat reads keeps it out of a group turn.
      chatDomains: { [`team${run}`]: [GROUP, SIBLING, CHANNEL, ALICE_PRIVATE] },
    },
    {
      turn: { historyRecall: 20, contextTokenBudget: 30_000 },
      memory: {
        dreaming: { enabled: false },
        // Anything readable of importance ≥ 0.8 is pinned; recall and search are wide open.
        mandatory: { minImportance: 0.8, maxItems: 50, tokenBudget: 20_000 },
        retrieval: { recallLimit: 20, recallTokenBudget: 5000, searchLimit: 50, softScope },
      },
    },
  );
}

/**
 * One run's material, every text carrying the run's tag. `hidden` is what no group or channel
 * turn may ever hold; the rest are the public controls.
 */
export async function world() {
  const tag = uid();
  const hidden = {
    personPrivate: `爱丽丝 ${tag} 私下说下个月要去医院复查甲状腺`,
    personSecret: `爱丽丝 ${tag} 的银行卡尾号是四四一七`,
    accountSecret: `爱丽丝 ${tag} 的身份证号写在私聊备忘里`,
    groupAccountPrivate: `爱丽丝 ${tag} 群账号下记着的离职打算`,
    chatPrivate: `私聊 ${tag} 里说的离职计划：月底交辞呈`,
    chatSecret: `私聊 ${tag} 里说的病历号是七七三一`,
    privateLog: `私聊 ${tag} 记录：爬山后去医院复查甲状腺`,
    privateSummary: `私聊摘要 ${tag}：爬山后去医院复查，银行卡要挂失`,
  };
  const open = {
    personPublic: `爱丽丝 ${tag} 公开说过喜欢登山`,
    chatPublic: `私聊 ${tag} 里公开说过喜欢橘猫`,
    groupItem: `群里 ${tag} 约好周六爬山后去医院探望老师`,
    channelItem: `频道 ${tag} 约好周日徒步`,
    groupLog: `群聊 ${tag} 记录：周六爬山集合在医院门口`,
    siblingLog: `隔壁群 ${tag} 记录：爬山路线经过医院`,
    groupSummary: `群摘要 ${tag}：周六爬山`,
    siblingSummary: `隔壁群摘要 ${tag}：爬山路线和医院`,
  };
  const secretLike = { sensitivity: "secret_like" as const, sensitivitySource: "explicit" as const };
  const privately = { sensitivity: "private" as const, sensitivitySource: "explicit" as const };
  // High importance: the mandatory block would pin every one of them if anything let it.
  const pinned = { importance: 0.99 };
  const ids = await seedMemory([
    newMemory(`person:${ALICE}`, hidden.personPrivate, { ...pinned, ...privately }),
    newMemory(`person:${ALICE}`, hidden.personSecret, { ...pinned, ...secretLike }),
    newMemory(`account:qq:user:${ALICE_P}`, hidden.accountSecret, { ...pinned, ...secretLike }),
    newMemory(`account:qq:user:${ALICE_G}`, hidden.groupAccountPrivate, { ...pinned, ...privately }),
    newMemory(`chat:${ALICE_PRIVATE}`, hidden.chatPrivate, { ...pinned, ...privately }),
    newMemory(`chat:${ALICE_PRIVATE}`, hidden.chatSecret, { ...pinned, ...secretLike }),
    newMemory(`person:${ALICE}`, open.personPublic, pinned),
    newMemory(`chat:${ALICE_PRIVATE}`, open.chatPublic),
    newMemory(`chat:${GROUP}`, open.groupItem),
    newMemory(`chat:${CHANNEL}`, open.channelItem),
  ]);
  const [personPrivate, personSecret, accountSecret, groupAccountPrivate, chatPrivate, chatSecret] = ids;
  const [personPublic, chatPublic, groupItem] = ids.slice(6);
  await logLines([
    { chat: GROUP, sender: "XM", nick: "小明", text: open.groupLog },
    { chat: SIBLING, sender: "XH", nick: "小红", text: open.siblingLog },
    { chat: ALICE_PRIVATE, sender: ALICE_P, nick: "爱丽丝", text: hidden.privateLog },
  ]);
  await summary(GROUP, open.groupSummary, "public");
  await summary(SIBLING, open.siblingSummary, "public");
  const privateSummary = await summary(ALICE_PRIVATE, hidden.privateSummary, "private");
  return {
    tag,
    hidden,
    open,
    hiddenIds: [
      personPrivate,
      personSecret,
      accountSecret,
      groupAccountPrivate,
      chatPrivate,
      chatSecret,
      privateSummary,
    ] as string[],
    ids: { personPrivate, personSecret, accountSecret, chatSecret, personPublic, chatPublic, groupItem },
    privateSummary,
  };
}
export type World = Awaited<ReturnType<typeof world>>;

/** The names of the world's private texts that occur in `text`: [] when nothing leaked. */
export function leaks(text: string, w: World): string[] {
  return Object.entries(w.hidden)
    .filter(([, t]) => text.includes(t))
    .map(([name]) => name);
}

/** Private node ids among the items a preview pinned or recalled. */
export function hiddenItems(p: TurnPreview, w: World): string[] {
  return [...p.mandatory.pinned, ...p.recalled].flatMap((i) =>
    i.nodeId && w.hiddenIds.includes(i.nodeId) ? [i.nodeId] : [],
  );
}

export type Call = ToolCallSpec;

/** Declares the people and admins in the stored settings and registers the world's chats. */
export async function registerGroupWorld() {
  await settings();
  await registerChat(GROUP, Date.now(), "登山群");
  await registerChat(SIBLING, Date.now(), "爬山群");
  await registerChat(CHANNEL, Date.now(), "户外频道");
  await registerChat(ALICE_PRIVATE, Date.now(), "爱丽丝");
}
