/**
 * A validation failure as data, so each reader words it in its own language: the schema
 * library's issue (its code and bounds: `too_small` with `minimum: 1`) without the value that
 * failed — a refused value may be anything a person typed — and, for a wrong type, a stand-in
 * of the same type so "received string" stays true. The dashboard and the CLI word it with the
 * library's own Chinese and English locales (`explainIssue`).
 */
import { z } from "zod";

export type ValidationIssue = { readonly code: string } & Readonly<Record<string, unknown>>;

/** A value of the same JSON type as `value`, carrying none of it. */
function standIn(value: unknown): unknown {
  if (Array.isArray(value)) return [];
  if (value === null) return null;
  switch (typeof value) {
    case "string":
      return "";
    case "number":
      return Number.isNaN(value) ? Number.NaN : 0;
    case "boolean":
      return false;
    case "object":
      return {};
    default:
      return undefined;
  }
}

/**
 * The issue as it may leave the Worker: no path (the field says it), no message, no value.
 * Undefined for a `custom` issue: its message is the schema's own sentence, which a locale's
 * generic "invalid input" would only make vaguer.
 */
export function issueData(issue: z.core.$ZodIssue): ValidationIssue | undefined {
  if (issue.code === "custom") return undefined;
  const { path: _path, message: _message, input, ...rest } = issue as z.core.$ZodIssue & { input?: unknown };
  return issue.code === "invalid_type" ? { ...rest, input: standIn(input) } : rest;
}

const LOCALES = { "zh-CN": z.locales.zhCN(), en: z.locales.en() } as const;

/** The issue in the reader's language, through the schema library's locale. */
export function explainIssue(issue: ValidationIssue, lang: keyof typeof LOCALES): string {
  const said = LOCALES[lang].localeError(issue as unknown as z.core.$ZodRawIssue);
  return typeof said === "string" ? said : (said?.message ?? issue.code);
}
