/**
 * The settings form: the fields an owner changes in the first week, grouped as the schema
 * groups them, each read from the zod schema for its kind and range (so the form can never
 * offer what the schema refuses) and labelled from the catalogue. Everything else stays in the
 * JSON editor under "高级". A post is checked here field by field (number, integer, range) for
 * an error beside the field, then saved through the one write path, which validates the whole.
 */
import type { z } from "zod";
import { type Settings, SettingsSchema } from "../../domain/config/settings";
import type { SettingsDocument } from "../../domain/config/settings-edit";
import type { MessageKey, Translate } from "./i18n/i18n";

export type FieldUnit = "days" | "items" | "tokens" | "chars" | "rounds" | "minutes" | "share";

type FieldSpec = { readonly path: string; readonly unit?: FieldUnit; readonly long?: boolean };

export const SETTINGS_GROUPS: readonly { readonly key: string; readonly fields: readonly FieldSpec[] }[] = [
  {
    key: "retention",
    fields: [
      { path: "retention.groupDays", unit: "days" },
      { path: "retention.privateDays", unit: "days" },
    ],
  },
  {
    key: "turn",
    fields: [
      { path: "turn.persona", long: true },
      { path: "turn.recentTurns", unit: "items" },
      { path: "turn.historyRecall", unit: "items" },
      { path: "turn.contextTokenBudget", unit: "tokens" },
      { path: "turn.maxToolRounds", unit: "rounds" },
      { path: "turn.maxReplyChars", unit: "chars" },
      { path: "turn.maxOutputTokens", unit: "tokens" },
    ],
  },
  {
    key: "memory",
    fields: [
      { path: "memory.retrieval.softScope" },
      { path: "memory.retrieval.recallLimit", unit: "items" },
      { path: "memory.retrieval.recencyHalfLifeDays", unit: "days" },
      { path: "memory.mandatory.minImportance", unit: "share" },
      { path: "memory.dreaming.enabled" },
      { path: "memory.dreaming.afterTurns", unit: "rounds" },
      { path: "memory.dreaming.idleMinutes", unit: "minutes" },
      { path: "memory.profiles.rewriteWithModel" },
    ],
  },
  {
    key: "memoryDecay",
    fields: [
      { path: "memory.decay.halfLifeDays.fact", unit: "days" },
      { path: "memory.decay.halfLifeDays.preference", unit: "days" },
      { path: "memory.decay.halfLifeDays.task", unit: "days" },
      { path: "memory.decay.halfLifeDays.decision", unit: "days" },
      { path: "memory.decay.halfLifeDays.procedure", unit: "days" },
      { path: "memory.decay.halfLifeDays.warning", unit: "days" },
      { path: "memory.decay.halfLifeDays.rule", unit: "days" },
      { path: "memory.decay.halfLifeDays.summary", unit: "days" },
      { path: "memory.decay.taskLifetimeDays", unit: "days" },
    ],
  },
  {
    key: "spend",
    fields: [
      { path: "spend.chatDailyTokens", unit: "tokens" },
      { path: "spend.globalDailyTokens", unit: "tokens" },
    ],
  },
  {
    key: "notices",
    fields: [
      { path: "notices.modelErrors", unit: "items" },
      { path: "notices.windowMinutes", unit: "minutes" },
      { path: "notices.minIntervalMinutes", unit: "minutes" },
    ],
  },
  {
    key: "summaries",
    fields: [
      { path: "summaries.enabled" },
      { path: "summaries.useModel" },
      { path: "summaries.lookbackDays", unit: "days" },
      { path: "summaries.minMessages", unit: "items" },
      { path: "summaries.maxChars", unit: "chars" },
    ],
  },
  {
    key: "display",
    fields: [{ path: "dashboard.language" }, { path: "calendar.timeZone" }],
  },
];

export type FieldKind =
  | { kind: "number"; min: number; max: number; integer: boolean; nullable: boolean }
  | { kind: "boolean" }
  | { kind: "choice"; options: readonly string[] }
  | { kind: "text"; min: number; max: number };

type AnySchema = z.ZodType & { def: { type: string; innerType?: AnySchema; shape?: unknown } };

function schemaAt(path: string): AnySchema {
  let schema = SettingsSchema as unknown as AnySchema;
  for (const part of path.split(".")) {
    const shape = (schema as unknown as { shape: Record<string, AnySchema> }).shape;
    const next = shape?.[part];
    if (!next) throw new Error(`settings form: no schema at ${path}`);
    schema = next;
  }
  return schema;
}

/** What the schema allows at `path`: read from zod, never restated. */
export function fieldKind(path: string): FieldKind {
  let schema = schemaAt(path);
  let nullable = false;
  if (schema.def.type === "nullable" && schema.def.innerType) {
    nullable = true;
    schema = schema.def.innerType;
  }
  const s = schema as unknown as Record<string, unknown>;
  switch (schema.def.type) {
    case "number":
      return {
        kind: "number",
        min: Number(s.minValue ?? Number.MIN_SAFE_INTEGER),
        max: Number(s.maxValue ?? Number.MAX_SAFE_INTEGER),
        integer: s.isInt === true,
        nullable,
      };
    case "boolean":
      return { kind: "boolean" };
    case "enum":
      return { kind: "choice", options: s.options as readonly string[] };
    case "string":
      return { kind: "text", min: Number(s.minLength ?? 0), max: Number(s.maxLength ?? 100_000) };
    default:
      throw new Error(`settings form: ${path} is a ${schema.def.type}, which the form does not show`);
  }
}

export function valueAt(root: unknown, path: string): unknown {
  let here = root;
  for (const part of path.split(".")) {
    if (here === null || typeof here !== "object") return undefined;
    here = (here as Record<string, unknown>)[part];
  }
  return here;
}

function setAt(root: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split(".");
  let here = root;
  for (const part of parts.slice(0, -1)) {
    const next = here[part];
    if (next === null || typeof next !== "object" || Array.isArray(next)) here[part] = {};
    here = here[part] as Record<string, unknown>;
  }
  here[parts[parts.length - 1] as string] = value;
}

export const formFields = (): string[] => SETTINGS_GROUPS.flatMap((g) => g.fields.map((f) => f.path));

/** The form's values as text, from the effective settings. */
export function formValues(effective: Settings): Record<string, string> {
  const values: Record<string, string> = {};
  for (const path of formFields()) {
    const value = valueAt(effective, path);
    values[path] = value === null || value === undefined ? "" : String(value);
  }
  return values;
}

export type FieldErrors = Record<string, string>;

function parseField(path: string, typed: string, t: Translate): { value: unknown } | { error: string } {
  const kind = fieldKind(path);
  if (kind.kind === "boolean") return { value: typed === "true" };
  if (kind.kind === "choice")
    return kind.options.includes(typed)
      ? { value: typed }
      : { error: t("settings.err.choice", { options: kind.options.join(" / ") }) };
  if (kind.kind === "text") {
    if (typed.length < kind.min || typed.length > kind.max)
      return { error: t("settings.err.length", { min: kind.min, max: kind.max }) };
    return { value: typed };
  }
  const text = typed.trim();
  if (text === "" && kind.nullable) return { value: null };
  const value = Number(text);
  if (text === "" || !Number.isFinite(value)) return { error: t("settings.err.number") };
  if (kind.integer && !Number.isInteger(value)) return { error: t("settings.err.integer") };
  if (value < kind.min || value > kind.max)
    return { error: t("settings.err.range", { min: kind.min, max: kind.max }) };
  return { value };
}

/**
 * The stored layer the form asks for: the stored layer as read, with each field that differs
 * from the effective value written into it (a field left as it was stays out, so the stored
 * layer does not pin what AKASHA_CONFIG or the defaults give). Errors name the field.
 */
export function documentFromForm(
  typed: Readonly<Record<string, string>>,
  stored: SettingsDocument | null,
  effective: Settings,
  t: Translate,
): { document: SettingsDocument } | { errors: FieldErrors } {
  const document = structuredClone((stored ?? {}) as Record<string, unknown>);
  const errors: FieldErrors = {};
  for (const path of formFields()) {
    const parsed = parseField(path, typed[path] ?? "", t);
    if ("error" in parsed) errors[path] = parsed.error;
    else if (parsed.value !== valueAt(effective, path) || valueAt(stored, path) !== undefined)
      setAt(document, path, parsed.value);
  }
  return Object.keys(errors).length > 0 ? { errors } : { document: document as SettingsDocument };
}

/** The catalogue keys of a field: its label and its line of help. */
export const fieldLabel = (path: string) => `setting.${path}` as MessageKey;
export const fieldHelp = (path: string) => `setting.${path}.help` as MessageKey;
export const groupTitle = (key: string) => `settings.group.${key}` as MessageKey;
export const unitLabel = (unit: FieldUnit) => `settings.unit.${unit}` as MessageKey;
