/**
 * A write into the chat's log from outside a drain (an append from another chat, a forget)
 * changes its hourly counts (log-counts.ts), which reach D1 only with a flush: the alarm is set
 * for the flush that carries them. A drain needs none of this: its rearm sees the waiting rows.
 */
import type { ChatParts } from "./chat-parts";

export async function flushLogCountsSoon(parts: Pick<ChatParts, "flusher" | "alarm">): Promise<void> {
  const at = parts.flusher.nextAt(null, Date.now());
  if (at !== null) await parts.alarm.ensureBy(at);
}
