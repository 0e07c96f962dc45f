/** A recalled memory item in the prompt's shape. */
import type { RecalledMemory } from "../memory/recall";
import type { RecalledItem } from "../model/chat-model";

export function recalledItem(r: RecalledMemory): RecalledItem {
  return {
    source: "memory",
    text: r.item.text,
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
