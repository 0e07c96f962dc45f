/**
 * The three sensitivity levels of a memory item (docs/memory.md#sensitivity). Their own module so that
 * scopes, which say which levels a turn may read of each scope, need not import the item.
 */
export const SENSITIVITIES = ["public", "private", "secret_like"] as const;
export type Sensitivity = (typeof SENSITIVITIES)[number];

export const isSensitivity = (value: unknown): value is Sensitivity =>
  typeof value === "string" && (SENSITIVITIES as readonly string[]).includes(value);
