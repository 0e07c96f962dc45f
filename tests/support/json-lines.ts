/** The records of a JSON Lines fixture (one JSON value a line), blank lines skipped. */
export function jsonLines<T>(text: string): T[] {
  return text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}
