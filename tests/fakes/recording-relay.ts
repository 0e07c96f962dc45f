/** A ChatRelay that applies the real platform rules (relayRoute) and records what it would send. */
import { type ChatRelay, type RelayRequest, relayRoute } from "../../src/domain/agent/chat-relay";
import { ok } from "../../src/domain/kernel/result";

export class RecordingRelay implements ChatRelay {
  readonly sent: RelayRequest[] = [];

  async send(request: RelayRequest) {
    const route = relayRoute(request.to);
    if (!route.ok) return route;
    this.sent.push(request);
    return ok({ messageId: `relayed-${this.sent.length}` });
  }
}
