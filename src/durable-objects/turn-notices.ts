/**
 * What a turn tells the owner (docs/decisions/0280-notices-to-the-owner.md): a spend cap the
 * turn ran into, and a failed model call (which becomes a notice once enough fail in a window).
 * Only facts leave: the cap's scope, numbers and day from the `spend.capped` audit entry, the
 * provider and the model error's kind — never its message, which may quote the chat.
 */
import type { AuditEntry } from "../domain/kernel/audit";
import type { ModelError } from "../domain/model/chat-model";
import type { NoticeFacts } from "../domain/notices/owner-notice";

export function turnNoticeFacts(input: {
  chatKey: string;
  provider: string;
  audit: readonly AuditEntry[];
  modelError: ModelError | null;
}): NoticeFacts[] {
  const out: NoticeFacts[] = [];
  const capped = input.audit.find((a) => a.action === "spend.capped");
  if (capped) {
    const d = capped.detail;
    out.push({
      kind: "spend-cap",
      scope: d.scope === "global" ? "global" : "chat",
      chatKey: input.chatKey,
      used: typeof d.used === "number" ? d.used : Number.NaN,
      cap: typeof d.cap === "number" ? d.cap : Number.NaN,
      day: typeof d.day === "string" ? d.day : "",
    });
  }
  if (input.modelError && input.provider !== "offline")
    out.push({ kind: "model-errors", provider: input.provider, errorKind: input.modelError.kind });
  return out;
}
