/**
 * Lists taken in turn, one item from each (round-robin), until `cap` or all are used: how
 * several chats' matches are merged when their scores cannot be compared (each chat's FTS
 * vocabulary is its own, so bm25 of one chat says nothing about another's).
 */
export function roundRobin<T>(lists: readonly (readonly T[])[], cap: number): T[] {
  const out: T[] = [];
  for (let i = 0; out.length < cap; i++) {
    let any = false;
    for (const list of lists) {
      const item = list[i];
      if (item === undefined) continue;
      any = true;
      if (out.length < cap) out.push(item);
    }
    if (!any) break;
  }
  return out;
}
