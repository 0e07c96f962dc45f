/**
 * The benches' made-up group chatter: who speaks and what they say. The message-log bench and
 * the per-turn bench seed the same chatter, so that their searches meet the same words and
 * their numbers compare.
 */
const NAMES = ["小明", "小红", "阿杰", "老王", "小李", "婷婷", "大伟", "阿珍", "Tom", "Lily"];
const LINES = [
  (o: string) => `周末一起去${o}吗`,
  (o: string) => `我最近在研究${o}，有点意思`,
  (o: string) => `${o}这个东西到底怎么弄`,
  (o: string) => `昨天的${o}真不错，下次还去`,
  (o: string) => `有人懂${o}吗？求推荐`,
  (o: string) => `明天下午三点开会，记得带上${o}的周报`,
];
const OBJECTS = ["猫", "火锅", "爬山", "摄影", "吉他", "咖啡", "寿司", "Vue", "Rust", "原神", "露营", "骑行"];
const pick = <T>(list: readonly T[], k: number): T => list[k % list.length] as T;

/** How many speakers there are: speaker `i` is the same person as speaker `i % BENCH_SPEAKERS`. */
export const BENCH_SPEAKERS = NAMES.length;

/** The nick of speaker `i` (any whole number). */
export const benchNick = (i: number): string => pick(NAMES, i);

/** Line `k` of the chatter; `shift` (a chat's number) gives another chat its own order of lines. */
export const benchLine = (k: number, shift = 0): string =>
  pick(LINES, k * 7 + shift)(pick(OBJECTS, Math.floor(k / 3) * 5 + k + shift));
