/**
 * Requests that say who must not hear, where the words must not go, or how far they may travel,
 * in words the older families did not read (docs/decisions/0810-privacy-requests-who-where-how-far.md):
 * northern verbs of talking (别跟我领导唠, 别出去跟人白话), a workplace named (别往单位那边带), only
 * those who know now (自己人知道就行) or only this chat (咱宿舍群说说得了, 以下内容不出群), pinyin
 * initials (bwc, 这个bm), a secret for now (先不公开), the bot asked to forget what it was told,
 * a picture or a post kept in (别把我的照片截出去, 别出现在别的群里), and Cantonese forms (keep住,
 * 得我哋几个知). The English forms (don't spill, just you guys know) are among the group rules'.
 */
import {
  CLAUSE_END,
  GAP,
  LEAD,
  NEG,
  PEOPLE,
  type RequestRule,
  THIS_GROUP,
  zh,
} from "./privacy-request-words";

/** Verbs of talking a northern speaker uses: 唠 (chat), 白话 / 咧咧 / 嘚嘚 (blab), 说漏 (let slip). */
const TALK = String.raw`(?:唠|白话|瞎白话|咧咧|瞎咧咧|嘚嘚|叨叨|说漏|讲漏)`;
/** Where a person's words may go on: a workplace, a school, home, another chat. */
const SOCIAL_PLACE = String.raw`(?:单位|公司|学校|班里|班上|家里|老家|群里|组里|部门|厂里)`;
/** Who already knows, and only they: 自己人, 你们几个, 兄弟们. */
const INSIDERS = String.raw`(?:咱们?自己人|自己人|你们几个|家人们|兄弟们|姐妹们|hxd们?|群友们|大伙儿?)`;

export const REACH_REQUEST_RULES: readonly RequestRule[] = [
  zh("say-to-nobody", `${LEAD}${NEG}${GAP(4)}(?:跟|和|对|同)(?:${GAP(4)}的?)?${PEOPLE}${GAP(4)}${TALK}`),
  zh("spread-nowhere", `${LEAD}${NEG}${GAP(2)}出去(?:乱|瞎)?(?:说|讲|提|传|${TALK})`),
  zh("spread-nowhere", `${LEAD}${NEG}往${SOCIAL_PLACE}(?:那边|那儿|那里|里)?带${CLAUSE_END}`),
  zh("spread-nowhere", `${LEAD}${NEG}把${GAP(8)}(?:截|发|传|转|晒|挂)(?:出去|到网上|上网)`),
  zh("spread-nowhere", `${LEAD}${NEG}再传了?${CLAUSE_END}`),
  zh(
    "only-you",
    `${INSIDERS}(?:知道|晓得|心里有数|心里清楚)就(?:好|行|得了|可以|够了)|得(?:我们|你们)(?:几个)?知(?:道)?`,
  ),
  zh(
    "stays-here",
    `(?:就|只|也就)(?:在|搁)(?:${THIS_GROUP}|这里|这儿|这)(?:说说|讲讲|聊聊|唠唠|唠)|(?:这边|这里|这儿|组里|\\p{Script=Han}{0,4}群(?:里)?)(?:说说|讲讲|唠唠|聊聊|讲下)(?:得了|就好|就行|就算了?|而已)`,
    "private",
  ),
  zh("stays-here", `(?:不|${NEG})出群(?!众)|${NEG}让${GAP(6)}(?:离开|出)${THIS_GROUP}`, "private"),
  zh(
    "stays-here",
    `(?:${NEG}|不希望|不想)${GAP(6)}出现在(?:任何地方|别的|其他|别处|外面|朋友圈|网上|\\p{Script=Han}{0,4}群)`,
    "private",
  ),
  // Not a promise to keep another's: "你的事我一定bwc".
  zh("spread-nowhere", `(?<!我(?:一定|会|保证|肯定|绝对)?\\s*)(?<![a-z])bwc(?![a-z])`),
  zh("keep-secret", `(?:这个|这事|帮我|替我|给我|先|大家|都)\\s*bm(?![a-z])`),
  zh("keep-secret", `(?:帮我|替我)?keep(?:住|着)`),
  zh("spread-nowhere", `(?:先|暂时|暂且)不(?:公开|官宣|声张|对外说|对外讲)${CLAUSE_END}`),
  zh("unsaid", `当(?:作|做)?我(?:没|没有)(?:跟|和|对)(?:你|你们|大家|机器人)(?:说|讲|提)过?`),
];
