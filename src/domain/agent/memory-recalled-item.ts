/** A recalled memory item in the prompt's shape. */
import { type RecalledMemory, recalledText } from "../memory/recall";
import type { RecalledItem } from "../model/chat-model";

export function recalledItem(r: RecalledMemory): RecalledItem {
  return {
    source: "memory",
    // A closed item is said as the past ("（过去：… 至 …）"), never as what is true now.
    text: recalledText(r),
    citation: r.citation,
    meta: {
      nodeId: r.item.nodeId,
      scope: r.scope,
      kind: r.item.kind,
      sensitivity: r.item.sensitivity,
      score: r.score,
    },
  };
}
