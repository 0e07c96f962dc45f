/** Validates a query or body with a zod schema; the first issue becomes an `invalid` problem naming the field. */
import type { z } from "zod";
import type { DomainError } from "../../domain/kernel/result";

export function validate<S extends z.ZodType>(
  schema: S,
  input: unknown,
): { ok: true; value: z.output<S> } | { ok: false; error: DomainError } {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const field =
    issue?.code === "unrecognized_keys" ? issue.keys.join(", ") : issue?.path.join(".") || "(body)";
  return {
    ok: false,
    error: {
      kind: "invalid",
      field,
      reason: issue?.code === "unrecognized_keys" ? "is not a known field" : (issue?.message ?? "is invalid"),
    },
  };
}
