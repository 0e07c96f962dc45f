/**
 * Ids this system mints: memory items (`m_` and 22 of base 36), knowledge documents and nodes
 * (`d_…`, `n_…`, 24 of hex) and owner plans (`plan-<ms>-<hex>`). The bot names them in its
 * answers and audit rows, and memory_forget takes them back, so no rule may mask one or any
 * part of one: a masked id points at nothing. Base 36 spells words, so a credential keyword can
 * sit inside an id ("m_0neu0c7cvv826ccjosbjfi" holds "cvv 826…"); the rules read the text as
 * people write it, and these spans are taken out of what they find afterwards
 * (docs/decisions/0780-no-rule-masks-a-minted-id.md).
 */

const SHAPE = String.raw`m_[0-9a-z]{22}|[dn]_[0-9a-f]{24}|plan-\d{13}-[0-9a-f]{8}`;

/** A whole token that is a minted id. */
export const SYSTEM_ID = new RegExp(`^(?:${SHAPE})$`);

const IN_TEXT = new RegExp(`(?<![A-Za-z0-9_-])(?:${SHAPE})(?![A-Za-z0-9_-])`, "g");

/** Where minted ids stand in `text`, as [start, end) offsets. */
export function systemIdSpans(text: string): (readonly [number, number])[] {
  return [...text.matchAll(IN_TEXT)].map((m) => [m.index, m.index + m[0].length] as const);
}
