/** Where the links of a text are: rules that must not read inside a URL skip these spans. */
const URL = /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s]+|\bdata:[^\s]+|\bwww\.[^\s]+/gi;

export function urlSpans(text: string): (readonly [number, number])[] {
  return [...text.matchAll(URL)].map((m) => [m.index, m.index + m[0].length] as const);
}
