/** ShortTermContext in memory, with the same cooldown rule as the chat object. */
import {
  type LastReset,
  type OtherChatContexts,
  type ResetRequest,
  resetDecision,
  type ShortTermContext,
} from "../../src/domain/agent/short-term-context";
import type { ChatKey } from "../../src/domain/chat/chat-address";
import { err, ok } from "../../src/domain/kernel/result";

export class FakeShortTermContext implements ShortTermContext {
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

/** Every chat's FakeShortTermContext, created on first use; `requests` records who asked for what. */
export class FakeOtherChatContexts implements OtherChatContexts {
  readonly chats = new Map<string, FakeShortTermContext>();
  readonly requests: { chat: ChatKey; req: ResetRequest }[] = [];
  constructor(readonly now: () => number) {}
  of(chat: string): FakeShortTermContext {
    let session = this.chats.get(chat);
    if (!session) {
      session = new FakeShortTermContext(this.now);
      this.chats.set(chat, session);
    }
    return session;
  }
  async reset(chat: ChatKey, req: ResetRequest) {
    this.requests.push({ chat, req });
    return this.of(chat).reset(req);
  }
}
