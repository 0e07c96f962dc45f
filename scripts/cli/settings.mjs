// `npm run akasha -- settings get [path] | set <path> <value> | unset <path>`: one behaviour
// setting at a time. The Worker validates the whole result like PUT /api/settings, saves it
// through its one write path and audits it; a refused value changes nothing.
import { CliError, command as define, withApiOptions } from "../lib/args.mjs";
import { client } from "./admin-api.mjs";
import { output } from "./format.mjs";
import { t } from "./i18n/lang.mjs";

const SEGMENT = /^[^\s.]{1,128}$/;

function at(root, path) {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, key)) return { found: false };
    node = node[key];
  }
  return { found: true, value: node };
}

function parsePath(raw) {
  const segments = String(raw).split(".");
  if (!segments.every((s) => SEGMENT.test(s))) throw new CliError(t("settings.badPath", { path: raw }));
  return segments;
}

/** A value as typed: JSON when it parses (true, 30, ["a"], "text"), else the text itself. */
export function parseValue(raw) {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export function renderGet(view, pathText) {
  if (!pathText) return JSON.stringify(view.effective, null, 2);
  const path = parsePath(pathText);
  const found = at(view.effective, path);
  if (!found.found) throw new CliError(t("settings.noSuch", { path: pathText }));
  const source = at(view.stored ?? {}, path).found
    ? t("settings.source.stored")
    : at(view.var ?? {}, path).found
      ? "AKASHA_CONFIG"
      : t("settings.source.defaults");
  return t("settings.value", { path: pathText, value: JSON.stringify(found.value, null, 2), source });
}

export function renderSet(r) {
  if (!r.changed) return t("settings.unchanged", { path: r.path, value: JSON.stringify(r.after) });
  const [before, after] = [JSON.stringify(r.before), JSON.stringify(r.after)];
  return t("settings.changed", { path: r.path, before, after });
}

export function command(name = "settings") {
  const root = define(name).description(t("summary.settings"));
  root.addCommand(
    withApiOptions(
      define("get").description(t("settings.desc.get")).argument("[path]", t("settings.arg.pathOrAll")),
    ).action(async (path, o) => {
      if (path) parsePath(path);
      const view = await client(o).call("GET", "/settings");
      if (o.json) output(o, path ? { path, ...at(view.effective, parsePath(path)) } : view);
      else console.log(renderGet(view, path));
    }),
  );
  root.addCommand(
    withApiOptions(
      define("set")
        .description(t("settings.desc.set"))
        .argument("<path>", t("settings.arg.path"))
        .argument("<value>", t("settings.arg.value")),
    ).action(async (path, value, o) => {
      parsePath(path);
      output(o, await client(o).call("PATCH", "/settings", { path, value: parseValue(value) }), renderSet);
    }),
  );
  root.addCommand(
    withApiOptions(
      define("unset").description(t("settings.desc.unset")).argument("<path>", t("settings.arg.pathShort")),
    ).action(async (path, o) => {
      parsePath(path);
      output(o, await client(o).call("PATCH", "/settings", { path, unset: true }), renderSet);
    }),
  );
  return root;
}
