// `npm run akasha -- settings get [path] | set <path> <value> | unset <path>`: one behaviour
// setting at a time. The Worker validates the whole result like PUT /api/settings, saves it
// through its one write path and audits it; a refused value changes nothing.
import { CliError, command as define, withApiOptions } from "../lib/args.mjs";
import { client } from "./admin-api.mjs";
import { output } from "./format.mjs";

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
  if (!segments.every((s) => SEGMENT.test(s)))
    throw new CliError(`'${raw}' 不是设置路径（例如 memory.dreaming.enabled）`);
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
  if (!found.found) throw new CliError(`没有设置 ${pathText}`);
  const source = at(view.stored ?? {}, path).found
    ? "存储层"
    : at(view.var ?? {}, path).found
      ? "AKASHA_CONFIG"
      : "默认值";
  return `${pathText} = ${JSON.stringify(found.value, null, 2)}（来自${source}）`;
}

export function renderSet(r) {
  if (!r.changed) return `${r.path} 已经是 ${JSON.stringify(r.after)}，什么都没有改变。`;
  return `${r.path}：${JSON.stringify(r.before)} → ${JSON.stringify(r.after)}（已保存并记入审计日志，约 10 秒内生效）。`;
}

export function command(name = "settings") {
  const root = define(name).description("行为设置：get、set、unset（整体校验、审计）");
  root.addCommand(
    withApiOptions(define("get").argument("[path]", "点分路径；省略则打印全部生效设置")).action(
      async (path, o) => {
        if (path) parsePath(path);
        const view = await client(o).call("GET", "/settings");
        if (o.json) output(o, path ? { path, ...at(view.effective, parsePath(path)) } : view);
        else console.log(renderGet(view, path));
      },
    ),
  );
  root.addCommand(
    withApiOptions(
      define("set")
        .argument("<path>", "点分路径，如 retention.groupDays")
        .argument("<value>", 'JSON 值（true、30、["qq:group:1"]）；不是 JSON 时按文本'),
    ).action(async (path, value, o) => {
      parsePath(path);
      output(o, await client(o).call("PATCH", "/settings", { path, value: parseValue(value) }), renderSet);
    }),
  );
  root.addCommand(
    withApiOptions(define("unset").argument("<path>", "点分路径")).action(async (path, o) => {
      parsePath(path);
      output(o, await client(o).call("PATCH", "/settings", { path, unset: true }), renderSet);
    }),
  );
  return root;
}
