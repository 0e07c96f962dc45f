// `npm run akasha -- memory list|show|edit|archive|restore|forget`: memory items through the
// admin API (every change is audited there with the acting admin).
import { CliError, command as define, integer, number, withApiOptions } from "../lib/args.mjs";
import { client, outputTimed, query } from "./admin-api.mjs";
import { clip, output, table, time } from "./format.mjs";

const scopeOf = (m) => (m.scope.type === "global" ? "global" : `${m.scope.type}:${m.scope.id}`);

export const renderList = ({ items, total }) =>
  `${table(
    items,
    [
      { title: "id", value: (m) => m.nodeId },
      { title: "scope", value: (m) => clip(scopeOf(m), 32) },
      { title: "kind", value: (m) => m.kind },
      { title: "imp", value: (m) => m.importance.toFixed(2), right: true },
      { title: "sens", value: (m) => m.sensitivity },
      { title: "status", value: (m) => m.status },
      { title: "text", value: (m) => clip(m.text, 60) },
    ],
    { empty: "No memory items match." },
  )}\n${items.length} of ${total}`;

/** One memory item, its times in `timeZone` with their offset. */
export const renderItem = (m, timeZone) =>
  [
    `${m.nodeId}  [${m.kind}] ${m.status}`,
    `  text         ${m.text}`,
    `  scope        ${scopeOf(m)}`,
    `  importance   ${m.importance}   confidence ${m.confidence}`,
    `  sensitivity  ${m.sensitivity} (${m.sensitivitySource})   portable ${m.portable}`,
    `  created      ${time(m.createdAt, timeZone)}   updated ${time(m.updatedAt, timeZone)}`,
    ...(m.subjectKey ? [`  subject      ${m.subjectKey}`] : []),
  ].join("\n");

const item = (r) => r.item ?? r;

/** The PATCH body of `memory edit`: only the fields given; nothing given is a refusal. */
export function editBody(options) {
  const body = {};
  if (options.text !== undefined) body.text = options.text;
  if (options.kind !== undefined) body.kind = options.kind;
  if (options.importance !== undefined) body.importance = options.importance;
  if (options.sensitivity !== undefined) body.sensitivity = options.sensitivity;
  if (options.portable !== undefined) body.portable = options.portable;
  if (Object.keys(body).length === 0)
    throw new CliError(
      "nothing to change: give --text, --kind, --importance, --sensitivity or --portable/--no-portable",
    );
  return body;
}

export function command(name = "memory") {
  const memory = define(name).description("memory items: list, show, edit, archive, restore, forget");
  memory.addCommand(
    withApiOptions(
      define("list")
        .description("memory items, newest first, filtered")
        .option("--scope <scope>", "scope key, e.g. chat:qq:group:<id> or global")
        .option("--kind <kind>", "preference, fact, task, rule, decision, procedure, warning, summary")
        .option("--sensitivity <s>", "public, private, secret_like")
        .option("--status <s>", "active, archived, superseded")
        .option("--chat <chat>", "items of this chat")
        .option("--person <person>", "items about this person")
        .option("--text <text>", "full-text filter")
        .option("--limit <n>", "1–200", integer(1, 200), 50)
        .option("--offset <n>", "skip this many", integer(0, 1_000_000), 0),
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
    withApiOptions(define("show").description("one memory item").argument("<id>")).action(async (id, o) => {
      const api = client(o);
      await outputTimed(api, o, await api.call("GET", `/memory/${encodeURIComponent(id)}`), (r, zone) =>
        renderItem(item(r), zone),
      );
    }),
  );
  memory.addCommand(
    withApiOptions(
      define("edit")
        .description("edit an item (its sensitivity source becomes explicit)")
        .argument("<id>")
        .option("--text <text>")
        .option("--kind <kind>")
        .option("--importance <x>", "0–1", number(0, 1))
        .option("--sensitivity <s>", "public, private, secret_like")
        .option("--portable", "may be recalled outside the chat it was said in")
        .option("--no-portable", "only where it was said"),
    ).action(async (id, o) => {
      const body = editBody(o);
      const api = client(o);
      await outputTimed(
        api,
        o,
        await api.call("PATCH", `/memory/${encodeURIComponent(id)}`, body),
        (r, zone) => renderItem(item(r), zone),
      );
    }),
  );
  for (const action of ["archive", "restore"]) {
    memory.addCommand(
      withApiOptions(
        define(action)
          .description(action === "archive" ? "active → archived" : "archived → active")
          .argument("<id>"),
      ).action(async (id, o) => {
        const api = client(o);
        await outputTimed(
          api,
          o,
          await api.call("POST", `/memory/${encodeURIComponent(id)}/${action}`),
          (r, zone) => renderItem(item(r), zone),
        );
      }),
    );
  }
  memory.addCommand(
    withApiOptions(
      define("forget")
        .description("delete an item, its edges and candidate rows for good (needs --yes)")
        .argument("<id>")
        .option("--yes", "confirm: this cannot be undone"),
    ).action(async (id, o) => {
      if (!o.yes) throw new CliError(`forgetting ${id} deletes it for good; re-run with --yes to confirm`);
      const r = await client(o).call("POST", `/memory/${encodeURIComponent(id)}/forget`, { confirm: id });
      output(o, r, () => `forgot ${id}`);
    }),
  );
  return memory;
}
