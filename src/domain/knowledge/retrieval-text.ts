/**
 * Contextual retrieval text without a model (docs/retrieval.md#retrieval-text): what FTS and the
 * embedder see for a node is its source title, its full heading path, aliases, its local
 * title and its own text, so a passage under "阿贝多 > 角色故事 > 角色故事 5" is found by
 * "阿贝多的角色故事" even when its own text never names 阿贝多. raw_text stays untouched.
 */
export type RetrievalTextParts = {
  readonly sourceTitle: string | null;
  readonly path: readonly string[];
  readonly aliases: readonly string[];
  readonly localTitle?: string | null;
  readonly text: string;
};

export function buildRetrievalText(parts: RetrievalTextParts): string {
  const lines: string[] = [];
  const source = parts.sourceTitle?.trim() ?? "";
  if (source && parts.path[0] !== source) lines.push(source);
  if (parts.path.length > 0) lines.push(parts.path.join(" > "));
  const aliases = parts.aliases.map((a) => a.trim()).filter((a) => a.length > 0);
  if (aliases.length > 0) lines.push(aliases.join("、"));
  const local = parts.localTitle?.trim() ?? "";
  if (local && local !== parts.path.at(-1) && local !== source) lines.push(local);
  if (parts.text.trim()) lines.push(parts.text.trim());
  return lines.join("\n");
}
