/**
 * Which flag of which command takes a password (docs/decisions/0570-credentials-in-command-lines.md),
 * from each tool's own manual: credential-command-lines.ts reads a flag only after its command.
 * `--password`, `--pass`, `--passwd`, `--pwd` and `--passphrase` (and names ending in them) are
 * read on every command and need no entry here.
 */

/** Where a value stands among a command's words, for arguments with no flag before them. */
export type Placed = { readonly index: number; readonly from?: number; readonly to?: number };

export type ToolForm =
  /** `-pSecret`: the value joined to the flag. */
  | { readonly kind: "attached"; readonly flag: string }
  /** `-a Secret`: the next word. */
  | { readonly kind: "next"; readonly flag: string }
  /** Either of the two. */
  | { readonly kind: "either"; readonly flag: string }
  /** `-u bob:Secret`, `-U bob%Secret`: after the separator, joined or next. */
  | { readonly kind: "after"; readonly flag: string; readonly sep: string }
  /** `-passin pass:Secret`: the next word after its tag. */
  | { readonly kind: "tagged"; readonly flag: string; readonly tag: string }
  /** `/p:Secret`: a Windows switch with a colon. */
  | { readonly kind: "colon"; readonly flag: string }
  /** Arguments by position: `net user bob Secret`. */
  | { readonly kind: "positional"; readonly find: (words: readonly string[]) => Placed[] };

export type CommandTool = {
  readonly names: readonly string[];
  readonly forms: readonly ToolForm[];
  /** A word the command line must hold for the forms to apply: `docker login`, not `docker run -p`. */
  readonly sub?: RegExp;
  /**
   * The command runs another (`sshpass -p x ssh -p 22 host`): its flags end where the other
   * command's name stands, and that command's flags are not its own.
   */
  readonly wraps?: boolean;
};

const names = (list: string) => list.split(" ");
const attached = (flag: string): ToolForm => ({ kind: "attached", flag });
const next = (...flags: string[]): ToolForm[] => flags.map((flag) => ({ kind: "next", flag }));
const either = (flag: string): ToolForm => ({ kind: "either", flag });
const after = (sep: string, ...flags: string[]): ToolForm[] =>
  flags.map((flag) => ({ kind: "after", flag, sep }));
const colon = (...flags: string[]): ToolForm[] => flags.map((flag) => ({ kind: "colon", flag }));
const positional = (find: (words: readonly string[]) => Placed[]): ToolForm => ({ kind: "positional", find });
const LOGIN = /^login$/i;

const isFlag = (w: string) => /^[-/]/.test(w);
const at = (index: number, words: readonly string[]): Placed[] =>
  index >= 0 && index < words.length && !isFlag(words[index] as string) ? [{ index }] : [];

/** `net user bob Secret /add`, `net use Z: \\srv\share Secret /user:bob`. */
const netValues = (words: readonly string[]): Placed[] => {
  const verb = words[0]?.toLowerCase();
  if (verb === "user") return at(2, words);
  if (verb !== "use") return [];
  const share = words.findIndex((w) => w.startsWith("\\\\"));
  return share >= 0 ? at(share + 1, words) : [];
};

/** `htpasswd -b[c] file user Secret`, `htpasswd -nb user Secret`: the last argument, in batch mode only. */
const htpasswdValues = (words: readonly string[]): Placed[] => {
  const flags = words.filter((w) => /^-[A-Za-z]+$/.test(w)).join("");
  if (!flags.includes("b")) return [];
  const args = words.map((w, index) => ({ w, index })).filter((x) => !x.w.startsWith("-"));
  const needed = flags.includes("n") ? 2 : 3;
  const last = args[args.length - 1];
  return args.length >= needed && last ? [{ index: last.index }] : [];
};

/** `sqlplus scott/tiger@orcl`, `expdp userid=system/Secret`, `rman target sys/Secret@db`. */
const slashLogins = (words: readonly string[]): Placed[] =>
  words.flatMap((w, index) => {
    const m = /^(?:userid=)?[\w$#.]+\/(?=[^/@\s])/i.exec(w);
    if (!m || /^[a-z]+:\/\//i.test(w)) return [];
    const cut = w.indexOf("@", m[0].length);
    return [{ index, from: m[0].length, to: cut < 0 ? undefined : cut }];
  });

/** `rabbitmqctl add_user bob Secret`, `cf auth bob Secret`: the second word after the verb. */
const afterVerb =
  (verbs: RegExp) =>
  (words: readonly string[]): Placed[] =>
    words.flatMap((w, i) => (verbs.test(w) ? at(i + 2, words) : []));

/** `wpa_passphrase MyWifi Secret`: the network, then its passphrase. */
const secondArgument = (words: readonly string[]): Placed[] => {
  const first = words.findIndex((w) => !isFlag(w));
  return first >= 0 ? at(first + 1, words) : [];
};

export const TOOLS: readonly CommandTool[] = [
  {
    names: names(
      "mysql mysqldump mysqladmin mysqlimport mysqlcheck mysqlshow mysqlpump mysqlsh mariadb mariadb-dump mariadb-admin",
    ),
    forms: [attached("-p"), ...next("password")],
  },
  { names: names("redis-cli valkey-cli keydb-cli"), forms: [...next("-a")] },
  { names: names("sshpass"), forms: [either("-p")], wraps: true },
  { names: names("http https"), forms: after(":", "-a", "--auth") },
  { names: names("curl"), forms: [...after(":", "-u", "--user", "-U", "--proxy-user")] },
  {
    names: names("docker podman buildah skopeo nerdctl helm oras crane regctl az oc cf argocd"),
    forms: [either("-p")],
    sub: LOGIN,
  },
  { names: names("cf"), forms: [positional(afterVerb(/^auth$/i))] },
  { names: names("zip unzip"), forms: [either("-P")] },
  { names: names("7z 7za 7zz 7zr rar unrar winrar"), forms: [attached("-p"), attached("-hp")] },
  {
    names: names("openssl"),
    forms: [
      ...next("-k"),
      ...["-pass", "-passin", "-passout", "-password"].map(
        (flag): ToolForm => ({ kind: "tagged", flag, tag: "pass:" }),
      ),
    ],
  },
  {
    names: names("keytool"),
    forms: next(
      "-storepass",
      "-keypass",
      "-srcstorepass",
      "-deststorepass",
      "-srckeypass",
      "-destkeypass",
      "-new",
    ),
  },
  { names: names("ssh-keygen"), forms: next("-N", "-P") },
  {
    names: names("ldapsearch ldapadd ldapmodify ldapdelete ldapwhoami ldapcompare ldapmodrdn ldappasswd"),
    forms: next("-w", "-s", "-a"),
  },
  { names: names("smbclient rpcclient smbget smbcacls winexe"), forms: after("%", "-U", "--user") },
  {
    names: names("smbmap hydra psexec psexec64 paexec rdesktop mcrcon ncftp ncftpget ncftpput"),
    forms: next("-p"),
  },
  {
    names: names("mongo mongosh mongodump mongorestore mongoexport mongoimport mongostat mongotop"),
    forms: next("-p"),
  },
  { names: names("sqlcmd bcp osql isql"), forms: next("-P") },
  { names: names("xfreerdp xfreerdp3 wlfreerdp sdl-freerdp"), forms: colon("/p", "/password") },
  { names: names("cmdkey"), forms: colon("/pass") },
  { names: names("wmic"), forms: colon("/password") },
  { names: names("schtasks"), forms: next("/rp", "/RP") },
  { names: names("net"), forms: [positional(netValues)] },
  { names: names("influx"), forms: next("-password") },
  { names: names("rcon rcon-cli rconc"), forms: next("-p") },
  { names: names("lftp"), forms: after(",", "-u") },
  { names: names("htpasswd"), forms: [positional(htpasswdValues)] },
  { names: names("rabbitmqctl"), forms: [positional(afterVerb(/^(?:add_user|change_password)$/i))] },
  { names: names("wpa_passphrase"), forms: [positional(secondArgument)] },
  { names: names("nmcli"), forms: next("password", "wifi-sec.psk", "802-11-wireless-security.psk") },
  { names: names("x11vnc"), forms: next("-passwd") },
  { names: names("sqlplus exp imp expdp impdp sqlldr rman"), forms: [positional(slashLogins)] },
];
