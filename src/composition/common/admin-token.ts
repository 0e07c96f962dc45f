/**
 * What production accepts as ADMIN_TOKEN. The token opens every admin route (the dashboard,
 * the API, the CLI), and guessing is throttled per client only, so it must be long and
 * random: at least 32 characters, and none of the values the repository publishes (the dev
 * defaults, the tests' token, the README's examples). A refused token closes the admin door
 * alone; webhooks and turns never read it (runtime-config.ts).
 */
import devDefaults from "../dev-defaults.json";

export const MIN_ADMIN_TOKEN_LENGTH = 32;

/**
 * Values anyone can read in the repository. Every dev default is listed, not only the admin
 * one: the dev QQ secret is 32 characters long. tests/composition/common/admin-token.test.ts fails
 * when the README, the docs, the tests or the configuration show a token this list misses.
 */
export const PUBLISHED_TOKENS: readonly string[] = [
  ...Object.values(devDefaults),
  "test-admin-token",
  "kV8sZ2pQ7xR4mN1b",
  "onebot-test-secret",
];

/** How to make and set one, for every refusal. */
const FIX =
  "生成一个：openssl rand -base64 32，再运行 wrangler secret put ADMIN_TOKEN --env production。" +
  " Generate one with `openssl rand -base64 32` and set it with `wrangler secret put ADMIN_TOKEN --env production`.";

/** Why production refuses this token (Chinese first, then English, then the fix), or null. */
export function adminTokenProblem(token: string | null): string | null {
  if (token === null)
    return `ADMIN_TOKEN 未设置，管理后台与 API 已关闭。ADMIN_TOKEN is not set; the admin routes stay closed. ${FIX}`;
  if (PUBLISHED_TOKENS.includes(token))
    return `ADMIN_TOKEN 是仓库里公开的值（开发默认值或示例），管理后台与 API 已关闭。ADMIN_TOKEN is the published dev default or an example from the repository; the admin routes stay closed. ${FIX}`;
  if ([...token].length < MIN_ADMIN_TOKEN_LENGTH)
    return `ADMIN_TOKEN 太短（至少 ${MIN_ADMIN_TOKEN_LENGTH} 个字符），管理后台与 API 已关闭。ADMIN_TOKEN is shorter than ${MIN_ADMIN_TOKEN_LENGTH} characters; the admin routes stay closed. ${FIX}`;
  return null;
}
