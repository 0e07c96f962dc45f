/**
 * Makes the first D1 flush of chat objects created from here on fail as an outage would, so a
 * test can watch the retry. `matches` narrows which batches count; `tried()` says how many
 * matching batches were sent so far (the failed one included). Undo with vi.restoreAllMocks().
 */

import { chatObjectServices } from "@src/composition/chat-object/chat-object-services";
import type { FlushBatch } from "@src/domain/history/message-log";
import { vi } from "vitest";

export function failFirstFlush(matches: (batch: FlushBatch) => boolean = () => true): {
  tried: () => number;
} {
  const real = chatObjectServices.create.bind(chatObjectServices);
  let tries = 0;
  vi.spyOn(chatObjectServices, "create").mockImplementation((e) => {
    const deps = real(e);
    const flush = deps.messageLog.flush.bind(deps.messageLog);
    deps.messageLog.flush = async (batch) => {
      if (matches(batch) && tries++ === 0) throw new Error("D1_ERROR: simulated outage");
      return flush(batch);
    };
    return deps;
  });
  return { tried: () => tries };
}
