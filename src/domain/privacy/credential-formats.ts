/**
 * Key and token formats of known providers, and the generic carriers of secrets in text
 * (headers, cookies, query strings, URLs with a password, `NAME=value` assignments).
 *
 * The provider patterns are ported from the secretlint rule set
 * (@secretlint/secretlint-rule-preset-recommend 13.0.7, MIT licence, © azu) and, for the
 * families secretlint has no rule for (Google API keys, JWTs, Stripe restricted keys in
 * `prod`), from gitleaks' default rules (config/gitleaks.toml, MIT licence). The npm
 * preset itself is not used: it is a 230 kB bundle that imports node:fs / node:path and
 * reports through secretlint's file-scanning rule context, which a Worker has no use for.
 *
 * Chat is not a source file: people paste keys cut short, or re-typed. Where secretlint
 * pins an exact length or checksum marker (OpenAI's `T3BlbkFJ`, Anthropic's trailing `AA`,
 * GitHub's 36 characters), the ported rule keeps the prefix and asks only for a plausible
 * length, so that a truncated key is still masked.
 */

import { type FormatRule, rule } from "./credential-format-rule";
import { PLATFORM_KEY_RULES } from "./credential-platform-keys";

/** Not preceded by a letter, digit or `_` (secretlint uses `(?<!\p{L})`). */
const START = String.raw`(?<![\p{L}\p{N}_])`;
/** Not followed by more of the token. */
const END = `(?![A-Za-z0-9_-])`;

export const FORMAT_RULES: readonly FormatRule[] = [
  // secretlint-rule-privatekey: the whole block, or to the end of the text when cut short.
  rule(
    "private-key",
    String.raw`-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|$)`,
  ),
  // Akasha's own one-time admin claim codes (identity/admin-claim.ts), cut short or not.
  rule("akasha-claim", `${START}akc_[A-Za-z0-9]{8,}${END}`, "giu"),
  // secretlint-rule-anthropic (before OpenAI: both start with `sk-`).
  rule("anthropic", String.raw`${START}sk-ant-(?:api|admin|oat)\d{2}-[A-Za-z0-9_-]{20,}${END}`),
  // secretlint-rule-openai: sk-, sk-proj-, sk-svcacct-, sk-admin- (and the many sk- keys of
  // OpenAI-compatible providers).
  rule("openai", `${START}sk-(?:(?:proj|svcacct|admin|None)-)?[A-Za-z0-9_-]{20,}${END}`),
  // secretlint-rule-github: classic, fine-grained and app installation tokens.
  rule("github", `${START}(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9_]{20,}${END}`),
  rule("github", `${START}github_pat_[A-Za-z0-9_]{22,}${END}`),
  // secretlint-rule-gitlab
  rule("gitlab", `${START}glpat-[A-Za-z0-9_-]{20,}${END}`),
  // secretlint-rule-aws: access key ids.
  rule(
    "aws-access-key-id",
    String.raw`\b(?:A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA)[A-Z0-9]{16}\b`,
  ),
  // secretlint-rule-aws: secret access keys, named (`aws_secret_access_key = …`).
  rule(
    "aws-secret-key",
    String.raw`(?:aws)?_?secret_?(?:access)?_?key["']?\s*[:=]\s*["']?(?<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])`,
    "giu",
  ),
  // secretlint-rule-slack: bot, user, app, refresh tokens; incoming webhooks.
  rule(
    "slack",
    String.raw`\b(?:xoxb|xoxp|xapp|xoxa|xoxo|xoxr|xoxs)-(?:\d-)?(?:[a-zA-Z0-9]{1,40}-)+[a-zA-Z0-9]{1,40}\b`,
  ),
  rule(
    "slack-webhook",
    String.raw`https:\/\/hooks\.slack\.com\/services\/T[a-zA-Z0-9]{1,40}\/B[a-zA-Z0-9]{1,40}\/[a-zA-Z0-9]{1,40}`,
    "giu",
  ),
  // A Feishu or Lark group robot's webhook, and a Discord one: the address is the key that posts
  // (docs/decisions/0790-lock-digits-documents-given-back-and-robot-webhooks.md).
  rule(
    "robot-webhook",
    String.raw`https:\/\/open\.(?:feishu\.cn|larksuite\.com)\/open-apis\/bot\/v2\/hook\/(?<secret>[A-Za-z0-9-]{16,64})`,
    "giu",
  ),
  rule(
    "robot-webhook",
    String.raw`https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d{5,20}\/(?<secret>[A-Za-z0-9_-]{30,100})`,
    "giu",
  ),
  // secretlint-rule-stripe, gitleaks stripe-access-token: secret and restricted keys.
  rule("stripe", `${START}(?:sk|rk)_(?:live|test|prod)_[a-zA-Z0-9]{16,99}(?![a-zA-Z0-9])`),
  // gitleaks gcp-api-key
  rule("google-api-key", String.raw`${START}AIza[\w-]{35}(?![\w-])`),
  // gitleaks jwt: header and payload are base64url JSON, so both start with `ey`.
  rule("jwt", String.raw`${START}ey[a-zA-Z0-9_-]{10,}\.ey[a-zA-Z0-9_-]{10,}\.[a-zA-Z0-9_-]*`),
  // secretlint-rule-npm, -sendgrid, -huggingface, -groq, -shopify, -hashicorp-vault,
  // -docker, -grafana, -linear, -notion, -figma, -databricks, -vercel, -cloudflare, -tailscale.
  rule("npm", `${START}npm_[A-Za-z0-9_]{36}(?![A-Za-z0-9_])`),
  rule("npm", String.raw`_authToken=(?<secret>[^\s$][^\s]*)`),
  rule("sendgrid", String.raw`${START}SG\.[\w-]{16,128}\.[\w-]{16,128}(?![\w-])`),
  rule("huggingface", `${START}hf_[a-zA-Z0-9]{30,}(?![a-zA-Z0-9])`),
  rule("groq", `${START}gsk_[a-zA-Z0-9]{40,}(?![a-zA-Z0-9])`),
  rule("shopify", `${START}(?:shppa|shpca|shpat|shpss)_[a-zA-Z0-9]{32,64}(?![a-zA-Z0-9])`),
  rule("hashicorp-vault", String.raw`${START}hv[sbr]\.[A-Za-z0-9_-]{90,300}(?![A-Za-z0-9_-])`),
  rule("docker", `${START}dckr_pat_[a-zA-Z0-9_-]{27,}(?![a-zA-Z0-9_-])`),
  rule("grafana", `${START}(?:glc_[A-Za-z0-9+/]{32,400}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})`),
  rule("linear", `${START}lin_api_[a-zA-Z0-9_]{32,128}(?![a-zA-Z0-9_])`),
  rule("notion", `${START}(?:ntn_[0-9]{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43})(?![A-Za-z0-9])`),
  rule("figma", `${START}figd_[A-Za-z0-9_-]{40,200}(?![A-Za-z0-9_-])`),
  rule("databricks", `${START}dapi[A-Fa-f0-9]{32}(?:-[0-9])?(?![A-Fa-f0-9])`),
  rule("vercel", `${START}(?:vcp|vci|vca|vcr|vck)_[A-Za-z0-9]{20,60}(?![A-Za-z0-9])`),
  rule("cloudflare", `${START}(?:cfk|cfut|cfat)_[A-Za-z0-9]{40}[0-9a-f]{8}(?![A-Za-z0-9])`),
  rule("tailscale", `${START}tskey-[a-z]{2,20}-[0-9A-Za-z_]{8,40}-[0-9A-Za-z_]{16,60}(?![0-9A-Za-z_])`),

  // secretlint-rule-basicauth and -database-connection-string: `scheme://user:password@host`,
  // for any scheme (https, ftp, mongodb, postgres, mysql, redis, amqp, …). Only the password.
  rule(
    "url-password",
    String.raw`\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@]{0,256}:(?<secret>[^\s@/]{1,256})@[^\s@]`,
    "giu",
  ),
  // A hex key in code, by its variable's name: `const amapKey = "3f9c…"`, `APP_SECRET: 'a1b2…'`. Bare
  // hex is left to people (commit hashes), but not under a name that says key, secret or token.
  rule(
    "named-hex-key",
    String.raw`(?<![\w])[A-Za-z][A-Za-z0-9]*(?:Key|Secret|Token|[_-](?:key|secret|token))["']?\s*:?=?\s*["'](?<secret>[0-9a-fA-F]{16,128})["']`,
    "giu",
  ),
  // The text of a WiFi QR code (`WIFI:T:WPA;S:<name>;P:<password>;;`): only the password.
  rule("wifi-qr", String.raw`\bWIFI:(?:(?:\\.|[^;\\\n])*;){0,6}?P:(?<secret>(?:\\.|[^;\\\n])+)`, "gu"),
  // Secrets in query strings and form bodies: `?password=…`, `&access_token=…`.
  rule(
    "query-secret",
    String.raw`[?&;](?:password|passwd|pwd|pass|passcode|token|access_token|refresh_token|id_token|auth_token|api_key|apikey|api-key|key|secret|client_secret|private_token|session|sessionid|sid|sig|signature|x-amz-signature|x-amz-security-token|x-amz-credential)=(?<secret>[^&\s#"'<>]{3,})`,
    "giu",
  ),
  // `Authorization: Bearer …` / `Basic …` / `token …`, and a bare `Bearer <token>`.
  rule(
    "authorization",
    String.raw`\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token|bot|digest|apikey)\s+)?(?<secret>[^\s"',;]{6,})`,
    "giu",
  ),
  rule("bearer", String.raw`\bbearer\s+(?<secret>[A-Za-z0-9._~+/=-]{12,})`, "giu"),
  // Cookie headers: everything after the colon, to the end of the line.
  rule("cookie", String.raw`\b(?:set-)?cookie["']?\s*:\s*(?<secret>[^\s=;]+=[^\n]+)`, "giu"),
  // Session cookies pasted on their own: `session=…`, `PHPSESSID=…`, `connect.sid=…`.
  rule(
    "session-cookie",
    String.raw`(?<![\w.-])(?:session|sessionid|session_id|session_token|sess|sid|phpsessid|jsessionid|connect\.sid|laravel_session|_session|csrftoken|xsrf-token|auth_token|remember_token|__secure-next-auth\.session-token|next-auth\.session-token)=(?<secret>[^;\s&]{8,})`,
    "giu",
  ),
  ...PLATFORM_KEY_RULES,
];
