/**
 * Passwords in the other snippets people paste beside a command line
 * (docs/decisions/0570-credentials-in-command-lines.md): SQL that sets one
 * (`IDENTIFIED BY 'x'`, `WITH PASSWORD 'x'`, `PASSWORD('x')`), redis configuration and its
 * prompt (`requirepass x`, `masterauth x`, `127.0.0.1:6379> AUTH x`), and a password echoed
 * into a command that reads it from its input (`echo x | sudo -S …`, `echo 'root:x' | chpasswd`,
 * `echo x | docker login --password-stdin`); and in source code, a password passed by name or to a
 * login call (`define('DB_PASSWORD', 'x')`, `server.login('me@qq.com', 'x')`). Only the value is masked.
 */

import { isCommandValue } from "./credential-command-lines";
import type { PhraseMatch } from "./credential-phrases";

const QUOTED = String.raw`(?<q>['"‘“])(?<value>[^'"’”\n]{1,128})['"’”]`;
const READS_INPUT = String.raw`(?:sudo\s+(?:-\w+\s+)*-S|sudo\s+--stdin|passwd\s+--stdin|chpasswd|[\w-]+\s+login\b[^|\n]*--password-stdin)`;

const RULES: readonly RegExp[] = [
  // ALTER USER 'root'@'%' IDENTIFIED WITH mysql_native_password BY 'x'; GRANT … IDENTIFIED BY 'x'
  new RegExp(String.raw`\bIDENTIFIED\s+(?:WITH\s+\w+\s+)?BY\s+${QUOTED}`, "giud"),
  // CREATE ROLE bob LOGIN PASSWORD 'x'; SET PASSWORD = PASSWORD('x'); CREATE LOGIN x WITH PASSWORD = 'x'
  new RegExp(String.raw`\b(?:ENCRYPTED\s+)?PASSWORD\s*(?:=\s*)?(?:PASSWORD\s*)?\(?\s*${QUOTED}`, "giud"),
  // redis.conf and CONFIG SET: requirepass x, masterauth x
  /\b(?:requirepass|masterauth)["']?\s+["']?(?<value>[^\s"']{3,128})/dgiu,
  // the redis prompt: 127.0.0.1:6379> AUTH x, AUTH default x
  /(?:^|>\s*)AUTH\s+(?:default\s+)?["']?(?<value>[^\s"']{3,128})/dgimu,
  // echo x | sudo -S …; echo -n 'x' | docker login -u bob --password-stdin
  new RegExp(
    String.raw`\becho\s+(?:-[ne]+\s+)?${QUOTED.replace("<value>[^", "<value>[^:")}\s*\|\s*${READS_INPUT}`,
    "giud",
  ),
  new RegExp(String.raw`\becho\s+(?:-[ne]+\s+)?(?<value>[^\s'"|]{3,128})\s*\|\s*${READS_INPUT}`, "giud"),
  // echo 'root:x' | chpasswd: the part after the user
  /\becho\s+(?:-[ne]+\s+)?['"]?[\w.-]+:(?<value>[^\s'"|:]{3,128})['"]?\s*\|\s*chpasswd/dgiu,
  // Source code (decision 0580): define('DB_PASSWORD', 'x'), os.setenv("API_TOKEN", "x")
  new RegExp(
    String.raw`['"][\w.-]*(?:password|passwd|pwd|secret|token|api_?key)['"]\s*,\s*${QUOTED}`,
    "giud",
  ),
  // A name and its value as separate fields (Postman, Kubernetes env): {"key": "appSecret", "value": "x"}
  new RegExp(
    String.raw`["'](?:key|name)["']\s*:\s*["'][\w.-]*(?:password|passwd|pwd|secret|token|api_?key)[\w.-]*["']\s*,\s*["']value["']\s*:\s*${QUOTED}`,
    "giud",
  ),
  // smtplib / imaplib / ftplib: server.login('me@qq.com', 'x')
  new RegExp(String.raw`\.login\(\s*['"][^'"\n]{1,128}['"]\s*,\s*${QUOTED}`, "giud"),
];

/** Every password value set in SQL, redis configuration or an echo into a password prompt. */
export function findSnippetValues(text: string): PhraseMatch[] {
  const out: PhraseMatch[] = [];
  for (const rule of RULES) {
    for (const m of text.matchAll(rule)) {
      const at = m.indices?.groups?.value;
      const value = m.groups?.value;
      if (!at || value === undefined || !isCommandValue(value)) continue;
      out.push({ start: at[0], end: at[1], id: "command-line" });
    }
  }
  return out;
}
