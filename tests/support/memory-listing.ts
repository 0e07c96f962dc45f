// Reading a `/memory` reply: each item is a line that starts with its short id.

/** The short id a `/memory` listing gives the line holding `fragment`, if any line does. */
export function listedIdOf(listing: string, fragment: string): string | undefined {
  const line = listing.split("\n").find((l) => l.includes(fragment));
  return line ? /^([0-9a-z]{6,22}) · /.exec(line)?.[1] : undefined;
}
