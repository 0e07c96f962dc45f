// `npm run akasha -- memory list|show|edit|move|archive|restore|done|forget|credentials`: memory items through
// the admin API (every change is audited there with the acting admin). `done` marks an active
// task done: archived now as expired with cause "done" (docs/memory.md#decay-and-reinforcement).
import { CliError, command as define, integer, number, withApiOptions } from "../lib/args.mjs";
import { client, outputTimed, query } from "./admin-api.mjs";
import { clip, output, table, time } from "./format.mjs";
import { t } from "./i18n/lang.mjs";
import { credentialsCommand } from "./memory-credentials.mjs";

const scopeOf = (m) => (m.scope.type === "global" ? "global" : `${m.scope.type}:${m.scope.id}`);

export const renderList = ({ items, total }) =>
  `${table(
    items,
    [
      { title: t("memory.col.id"), value: (m) => m.nodeId },
      { title: t("memory.col.scope"), value: (m) => clip(scopeOf(m), 32) },
      { title: t("memory.col.kind"), value: (m) => m.kind },
      { title: t("memory.col.importance"), value: (m) => m.importance.toFixed(2), right: true },
      { title: t("memory.col.sensitivity"), value: (m) => m.sensitivity },
      { title: t("memory.col.status"), value: (m) => m.status },
      { title: t("memory.col.text"), value: (m) => clip(m.text, 60) },
    ],
    { empty: t("memory.none") },
  )}\n${t("memory.count", { shown: items.length, total })}`;

/** One memory item, its times in `timeZone` with their offset. */
export const renderItem = (m, timeZone) =>
  [
    `${m.nodeId}  [${m.kind}] ${m.status}`,
    t("memory.item.text", { text: m.text }),
    t("memory.item.scope", { scope: scopeOf(m) }),
    t("memory.item.importance", { importance: m.importance, confidence: m.confidence }),
    t("memory.item.sensitivity", {
      sensitivity: m.sensitivity,
      source: m.sensitivitySource,
      portable: m.portable,
    }),
    t("memory.item.times", { created: time(m.createdAt, timeZone), updated: time(m.updatedAt, timeZone) }),
    ...(m.subjectKey ? [t("memory.item.subject", { subject: m.subjectKey })] : []),
    ...(m.decay?.dueAt != null ? [t("memory.item.due", { due: time(m.decay.dueAt, timeZone) })] : []),
    ...(m.decay?.expiredAt != null
      ? [t("memory.item.expired", { expired: time(m.decay.expiredAt, timeZone) })]
      : []),
  ].join("\n");

const item = (r) => r.item ?? r;

/** What the Worker's refusals mean for one item, by their codes (admin-api.mjs problemMessage). */
const refusals = (id, action) => ({
  "not-found": () => t("memory.notFound", { id }),
  ...(action ? { "invalid:status": () => t(`memory.refused.${action}`) } : {}),
});

/** The PATCH body of `memory edit`: only the fields given; nothing given is a refusal. */
export function editBody(options) {
  const body = {};
  if (options.text !== undefined) body.text = options.text;
  if (options.kind !== undefined) body.kind = options.kind;
  if (options.importance !== undefined) body.importance = options.importance;
  if (options.sensitivity !== undefined) body.sensitivity = options.sensitivity;
  if (options.portable !== undefined) body.portable = options.portable;
  if (Object.keys(body).length === 0) throw new CliError(t("memory.nothingToChange"));
  return body;
}

export function command(name = "memory") {
  const memory = define(name).description(t("summary.memory"));
  memory.addCommand(
    withApiOptions(
      define("list")
        .description(t("memory.desc.list"))
        .option("--scope <scope>", t("memory.opt.scope"))
        .option("--kind <kind>", t("memory.opt.kind"))
        .option("--sensitivity <s>", t("memory.opt.sensitivity"))
        .option("--status <s>", t("memory.opt.status"))
        .option("--chat <chat>", t("memory.opt.chat"))
        .option("--person <person>", t("memory.opt.person"))
        .option("--text <text>", t("memory.opt.text"))
        .option("--limit <n>", t("memory.opt.limit"), integer(1, 200), 50)
        .option("--offset <n>", t("memory.opt.offset"), integer(0, 1_000_000), 0),
    ).action(async (o) => {
      const q = query({
        scope: o.scope,
        kind: o.kind,
        sensitivity: o.sensitivity,
        status: o.status,
        chat: o.chat,
        person: o.person,
        text: o.text,
        limit: o.limit,
        offset: o.offset,
      });
      output(o, await client(o).call("GET", `/memory${q}`), renderList);
    }),
  );
  memory.addCommand(
    withApiOptions(
      define("show").description(t("memory.desc.show")).argument("<id>", t("memory.arg.id")),
    ).action(async (id, o) => {
      const api = client(o);
      await outputTimed(
        api,
        o,
        await api.call("GET", `/memory/${encodeURIComponent(id)}`, undefined, refusals(id)),
        (r, zone) => renderItem(item(r), zone),
      );
    }),
  );
  memory.addCommand(
    withApiOptions(
      define("edit")
        .description(t("memory.desc.edit"))
        .argument("<id>", t("memory.arg.id"))
        .option("--text <text>", t("memory.opt.newText"))
        .option("--kind <kind>", t("memory.opt.kind"))
        .option("--importance <x>", t("memory.opt.importance"), number(0, 1))
        .option("--sensitivity <s>", t("memory.opt.sensitivity"))
        .option("--portable", t("memory.opt.portable"))
        .option("--no-portable", t("memory.opt.noPortable")),
    ).action(async (id, o) => {
      const body = editBody(o);
      const api = client(o);
      await outputTimed(
        api,
        o,
        await api.call("PATCH", `/memory/${encodeURIComponent(id)}`, body, refusals(id)),
        (r, zone) => renderItem(item(r), zone),
      );
    }),
  );
  memory.addCommand(
    withApiOptions(
      define("move")
        .description(t("memory.desc.move"))
        .argument("<id>", t("memory.arg.id"))
        .requiredOption("--scope <scope>", t("memory.opt.toScope"))
        .option("--confirm-shared", t("memory.opt.confirmShared")),
    ).action(async (id, o) => {
      const api = client(o);
      const moved = await api.call(
        "POST",
        `/memory/${encodeURIComponent(id)}/move`,
        { scope: o.scope, confirmShared: o.confirmShared === true },
        {
          ...refusals(id, "move"),
          "conflict:shared-needs-confirm": () => t("memory.refused.shared", { scope: o.scope }),
        },
      );
      await outputTimed(api, o, moved, (r, zone) => renderItem(item(r), zone));
    }),
  );
  for (const action of ["archive", "restore", "done"]) {
    memory.addCommand(
      withApiOptions(
        define(action)
          .description(t(`memory.desc.${action}`))
          .argument("<id>", t("memory.arg.id")),
      ).action(async (id, o) => {
        const api = client(o);
        await outputTimed(
          api,
          o,
          await api.call(
            "POST",
            `/memory/${encodeURIComponent(id)}/${action}`,
            undefined,
            refusals(id, action),
          ),
          (r, zone) => renderItem(item(r), zone),
        );
      }),
    );
  }
  memory.addCommand(
    withApiOptions(
      define("forget")
        .description(t("memory.desc.forget"))
        .argument("<id>", t("memory.arg.id"))
        .option("--yes", t("memory.opt.yes")),
    ).action(async (id, o) => {
      if (!o.yes) throw new CliError(t("memory.forgetNeedsYes", { id }));
      const r = await client(o).call(
        "POST",
        `/memory/${encodeURIComponent(id)}/forget`,
        { confirm: id },
        refusals(id),
      );
      output(o, r, () => t("memory.forgot", { id }));
    }),
  );
  memory.addCommand(credentialsCommand());
  return memory;
}
