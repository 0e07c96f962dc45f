/** SessionControl in memory, with the same cooldown rule as the chat object. */
import { type LastReset, resetDecision, type SessionControl } from "../../src/domain/agent/session-control";
import { err, ok } from "../../src/domain/shared/result";

export class FakeSession implements SessionControl {
  last: LastReset | null = null;
  resets = 0;
  constructor(readonly now: () => number) {}
  async reset(req: { eventId: string }) {
    const decision = resetDecision(this.last, req.eventId, this.now());
    if (decision.kind === "rate-limited")
      return err({ kind: "rate-limited" as const, retryAfterSeconds: decision.retryAfterSeconds });
    if (decision.kind === "repeat") return ok({ cleared: 0, repeated: true });
    this.last = { at: this.now(), eventId: req.eventId };
    this.resets++;
    return ok({ cleared: 1, repeated: false });
  }
}
