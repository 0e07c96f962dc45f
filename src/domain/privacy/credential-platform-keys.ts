/**
 * The login cookies and signed download links of the platforms this bot's people use
 * (docs/decisions/0690-platform-login-cookies.md). Whoever holds one of these values is logged in
 * as the person, or downloads their file: QQ's `skey` and `p_skey`, Bilibili's `SESSDATA`, Baidu's
 * `BDUSS`, JD's `pt_key`, and the `rkey` every QQ image link carries. People paste them as a
 * browser or a bot's configuration shows them (`SESSDATA=…; bili_jct=…`), or name them in a
 * sentence ("skey 填 @Ab3…"). Only the value is masked; the name stays readable.
 */
import { type FormatRule, rule } from "./credential-format-rule";

/** Cookie names that carry a login, matched in any case. */
const LOGIN_COOKIES = [
  // QQ and its web apps (QQ Music's login key too).
  "skey",
  "p_skey",
  "pskey",
  "pt4_token",
  "superkey",
  "supertoken",
  "clientkey",
  "qm_keyst",
  "qqmusic_key",
  // Bilibili, Baidu, JD, Taobao, NetEase Music, Zhihu, Xiaohongshu, Douyin, Steam, GitHub.
  "sessdata",
  "bili_jct",
  "ac_time_value",
  "bduss",
  "bduss_bfess",
  "stoken",
  "ptoken",
  "pt_key",
  "cookie2",
  "_tb_token_",
  "sgcookie",
  "music_u",
  "z_c0",
  "web_session",
  "sid_tt",
  "sessionid_ss",
  "sid_guard",
  "steamloginsecure",
  "user_session",
  "_gh_sess",
  // Quark and 115 cloud drives, Kuaishou.
  "__pus",
  "__puus",
  "seid",
  String.raw`kuaishou\.server\.web_st`,
  String.raw`__secure-[13]psid\w*`,
].join("|");

/** Query parameters that sign or open a link: QQ's image and music keys, CDN and bucket signatures. */
const LINK_KEYS = [
  "rkey",
  "vkey",
  "auth_key",
  "authkey",
  "q-signature",
  "x-goog-signature",
  "sign",
  "pass_ticket",
  "ticket",
].join("|");

/** The share links of cloud drives, whose files a four-character code opens. */
const DRIVES = String.raw`pan\.baidu\.com|alipan\.com|aliyundrive\.com|pan\.quark\.cn|115\.com|115cdn\.com|lanzou\w*\.com|123pan\.com|weiyun\.com|cloud\.189\.cn|caiyun\.139\.com|pan\.xunlei\.com`;

/** A cookie's or a link's value: to the next separator, at least eight characters. */
const VALUE = String.raw`(?<secret>[^\s;&"'<>，。；]{8,})`;

export const PLATFORM_KEY_RULES: readonly FormatRule[] = [
  // `SESSDATA=…`, `skey=@…`, `z_c0="2|1:0|…"`, pasted from a browser.
  rule("platform-cookie", String.raw`(?<![\w.-])(?:${LOGIN_COOKIES})=["']?${VALUE}`, "giu"),
  // Weibo's login cookie is a plain word in other places: only in capitals, and long.
  rule("platform-cookie", String.raw`(?<![\w.-])SUB=(?<secret>_[A-Za-z0-9_-]{30,})`, "gu"),
  // Named in a sentence or a configuration: "skey 填 @Ab3…", "SESSDATA 是 …", "pskey: …".
  rule(
    "platform-cookie",
    String.raw`(?<![\w.-])(?:${LOGIN_COOKIES})\s*(?:是|为|填|填的|[:：]|\s)\s*(?<secret>[\x21-\x7E]{8,})(?![\x21-\x7E])`,
    "giu",
  ),
  // A cloud drive's share code after 提取 without 码: four letters and digits mixed ("提取 8kq3"), or
  // any four right after a drive's link ("…/s/1QwErTy 提取 2931"); "提取 2024 年" and "提取 json" stay.
  rule(
    "share-code",
    String.raw`提取\s*[:：]?\s*(?<secret>(?=[A-Za-z0-9]{0,3}[A-Za-z])(?=[A-Za-z0-9]{0,3}\d)[A-Za-z0-9]{4})(?![A-Za-z0-9])`,
    "gu",
  ),
  rule(
    "share-code",
    String.raw`(?:${DRIVES})\S*\s*提取\s*[:：]?\s*(?<secret>[A-Za-z0-9]{4})(?![A-Za-z0-9])`,
    "giu",
  ),
  // `&rkey=…` on a QQ image's link, `?auth_key=…`, `&q-signature=…`.
  rule("link-key", `[?&;](?:${LINK_KEYS})=${VALUE}`, "giu"),
];
