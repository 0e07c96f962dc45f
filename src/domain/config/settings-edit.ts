/**
 * Edits of the stored settings layer (docs/architecture.md#settings), shared by the admin HTTP API and the
 * `config_change` tool: each computes the whole new stored document and validates the whole
 * resolution (defaults ⊕ AKASHA_CONFIG ⊕ new stored) before anything is saved, so an edit is
 * applied completely or not at all.
 */
import { err, ok, type Result } from "../kernel/result";
import {
  containsCredential,
  findSensitiveDataInMessage,
  isReaderFinding,
  maskCredentials,
} from "../privacy/credentials";
import { resolveSettings, type Settings, type SettingsError } from "./settings";

/** A settings layer as stored: a JSON object. */
export type SettingsDocument = { readonly [key: string]: unknown };

/** The two configurable layers as they are now. `stored` is null when nothing was saved. */
export type SettingsLayers = {
  readonly var: SettingsDocument;
  readonly stored: SettingsDocument | null;
  /**
   * Identifies the stored layer as it was read (opaque; null = no stored row), so that a save
   * can refuse to overwrite a change made in between.
   */
  readonly revision?: string | null;
};

/** A validated edit: the document to save and the settings it resolves to. */
export type SettingsEdit = { readonly stored: SettingsDocument; readonly effective: Settings };

/** A dotted path as the tool takes it: `memory.dreaming.enabled`. */
export type SettingPath = readonly string[];

const SEGMENT = /^[^\s.]{1,128}$/;
const MAX_DEPTH = 8;

function isObject(value: unknown): value is SettingsDocument {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const invalid = (field: string, reason: string) => err<SettingsError>({ kind: "invalid", field, reason });

/** `a.b.c` → segments; refuses empty segments, whitespace and absurd depth. */
export function parseSettingPath(raw: string): Result<SettingPath, SettingsError> {
  const segments = raw.trim().split(".");
  if (raw.trim() === "" || segments.length > MAX_DEPTH || !segments.every((s) => SEGMENT.test(s)))
    return invalid("path", "must be a dotted settings path like memory.dreaming.enabled");
  return ok(segments);
}

/**
 * The settings the layers resolve to, as the settings loader applies them: a stored layer
 * that does not validate is ignored as a whole, and `storedError` says why.
 */
export function effectiveSettings(
  layers: SettingsLayers,
): Result<{ settings: Settings; storedError: SettingsError | null }, SettingsError> {
  const fromVar = resolveSettings(layers.var);
  if (!fromVar.ok) return invalid(`AKASHA_CONFIG.${fromVar.error.field}`, fromVar.error.reason);
  if (layers.stored === null) return ok({ settings: fromVar.value, storedError: null });
  const withStored = resolveSettings(layers.var, layers.stored);
  return withStored.ok
    ? ok({ settings: withStored.value, storedError: null })
    : ok({ settings: fromVar.value, storedError: withStored.error });
}

/**
 * Replaces the stored layer with `next` (a JSON object), validated over the var layer. A
 * document that holds a credential anywhere is refused whole: the stored layer is a D1 row
 * that the API and dashboard show back, and the bot's keys are Worker secrets.
 */
export function replaceStoredLayer(
  layers: SettingsLayers,
  next: unknown,
): Result<SettingsEdit, SettingsError> {
  if (!isObject(next)) return invalid("(root)", "must be a JSON object");
  if (Object.hasOwn(next, "webhook"))
    return invalid(
      "webhook",
      "is set in AKASHA_CONFIG only: the webhooks apply it before a request is authenticated, without reading stored settings",
    );
  const secret = credentialFieldIn(next);
  if (secret !== null)
    return invalid(secret, "holds a credential; credentials belong in secrets, not settings");
  const resolved = resolveSettings(layers.var, next);
  return resolved.ok ? ok({ stored: next, effective: resolved.value }) : resolved;
}

/**
 * Sets one path of the stored layer, validated as a whole. Only the last segment replaces;
 * objects on the way are kept or created, and an array or scalar on the way becomes an object
 * (which validation then refuses, naming the field).
 */
export function setStoredValue(
  layers: SettingsLayers,
  path: SettingPath,
  value: unknown,
): Result<SettingsEdit, SettingsError> {
  return replaceStoredLayer(layers, withPath(layers.stored ?? {}, path, value));
}

/**
 * Removes one path from the stored layer (empty objects left behind go too), validated as a
 * whole. `removed` is false, and nothing needs saving, when the stored layer did not set it.
 */
export function unsetStoredValue(
  layers: SettingsLayers,
  path: SettingPath,
): Result<SettingsEdit & { removed: boolean }, SettingsError> {
  const current = layers.stored ?? {};
  const removed = valueAt(current, path).found;
  const next = removed ? withoutPath(current, path) : current;
  const edit = replaceStoredLayer(layers, next);
  return edit.ok ? ok({ ...edit.value, removed }) : edit;
}

/**
 * Prose an admin types, read as a person's message is: by the rules and by the trained readers of
 * values (docs/decisions/0670-settings-persona-read-as-messages.md). Other strings are model
 * names, ids and URLs, which the reader was not trained on: the rules alone read them.
 */
const PROSE_PATHS: ReadonlySet<string> = new Set(["turn.persona"]);

function holdsCredential(text: string, path: string): boolean {
  if (containsCredential(text)) return true;
  return PROSE_PATHS.has(path) && findSensitiveDataInMessage(text).some(isReaderFinding);
}

/**
 * The dotted path of the first string value or key of `value` that holds a credential, or
 * null. A key that holds one is named masked: the error is shown and audited.
 */
function credentialFieldIn(value: unknown, path: readonly string[] = []): string | null {
  if (typeof value === "string") {
    const field = path.join(".") || "(root)";
    return holdsCredential(value, field) ? field : null;
  }
  const entries = Array.isArray(value)
    ? value.map((v, i) => [String(i), v] as const)
    : isObject(value)
      ? Object.entries(value)
      : [];
  for (const [key, inner] of entries) {
    if (containsCredential(key)) return [...path, maskCredentials(key)].join(".");
    const found = credentialFieldIn(inner, [...path, key]);
    if (found !== null) return found;
  }
  return null;
}

/** The value at a path of any JSON value (array indexes allowed); `found` false when absent. */
export function valueAt(root: unknown, path: SettingPath): { found: boolean; value: unknown } {
  let node: unknown = root;
  for (const key of path) {
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(key) && Number(key) < node.length)
      node = node[Number(key)];
    else if (isObject(node) && Object.hasOwn(node, key)) node = node[key];
    else return { found: false, value: undefined };
  }
  return { found: true, value: node };
}

function withPath(doc: SettingsDocument, path: SettingPath, value: unknown): SettingsDocument {
  const [key, ...rest] = path;
  if (key === undefined) return doc;
  const inner = doc[key];
  return { ...doc, [key]: rest.length === 0 ? value : withPath(isObject(inner) ? inner : {}, rest, value) };
}

function withoutPath(doc: SettingsDocument, path: SettingPath): SettingsDocument {
  const [key, ...rest] = path;
  if (key === undefined || !Object.hasOwn(doc, key)) return doc;
  const { [key]: inner, ...others } = doc;
  if (rest.length === 0) return others;
  if (!isObject(inner)) return doc;
  const pruned = withoutPath(inner, rest);
  return Object.keys(pruned).length === 0 ? others : { ...others, [key]: pruned };
}

/** Dotted paths of the leaves that differ between two documents (arrays compare whole, absent objects count as empty). */
export function changedPaths(before: unknown, after: unknown, prefix = ""): string[] {
  const descend =
    (isObject(before) || isObject(after)) &&
    (isObject(before) || before === undefined) &&
    (isObject(after) || after === undefined);
  if (descend) {
    const [b, a] = [isObject(before) ? before : {}, isObject(after) ? after : {}];
    const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].sort();
    return keys.flatMap((k) => changedPaths(b[k], a[k], prefix === "" ? k : `${prefix}.${k}`));
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [prefix === "" ? "(root)" : prefix];
}
