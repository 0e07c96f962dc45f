/** One pattern of the credential rules: the format modules list them, credentials.ts runs them. */
export type FormatRule = {
  readonly id: string;
  /** Global regex; the group named `secret`, when present, is what gets masked. */
  readonly pattern: RegExp;
};

/** A rule from a pattern's source; its indices are always asked for (`d`), to mask the `secret` group. */
export const rule = (id: string, source: string, flags = "gu"): FormatRule => ({
  id,
  pattern: new RegExp(source, flags.includes("d") ? flags : `${flags}d`),
});
