/**
 * Builds FTS5 MATCH expressions from tokens. Every token is a quoted string, so user text
 * (`"`, `*`, `NEAR`, `-`, `:`, `^`, parentheses, column filters) never reaches FTS5 syntax.
 */
import { queryTokens } from "./search-tokens";

const HAS_WORD_CHAR = /[\p{L}\p{N}]/u;

/** `"tok"` with embedded quotes doubled, the only escape FTS5 strings have. */
export function quoteToken(token: string): string {
  return `"${token.replaceAll('"', '""')}"`;
}

/**
 * A MATCH expression that matches rows containing any (`OR`) or all (`AND`) of the tokens,
 * or null when nothing searchable remains — callers return no results rather than query.
 */
export function matchExpression(tokens: readonly string[], operator: "OR" | "AND" = "OR"): string | null {
  const usable = tokens.filter((t) => HAS_WORD_CHAR.test(t));
  if (usable.length === 0) return null;
  return usable.map(quoteToken).join(` ${operator} `);
}

/** Tokenizes free text the same way rows are indexed and builds an OR expression. */
export function matchExpressionFor(text: string, limit?: number): string | null {
  return matchExpression(queryTokens(text, limit));
}

const COLUMN = /^[a-z_][a-z0-9_]*$/;

/**
 * `column : (expression)`: restricts an expression built above to one column of the FTS
 * table. Column names are ours; a name that is not a plain identifier is a bug.
 */
export function inColumn(column: string, expression: string): string {
  if (!COLUMN.test(column)) throw new Error(`not an FTS column name: ${column}`);
  return `${column} : (${expression})`;
}

/** Rows matching every one of the expressions. */
export function allOf(...expressions: readonly string[]): string {
  return expressions.map((e) => `(${e})`).join(" AND ");
}
