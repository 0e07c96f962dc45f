/**
 * What an explicit memory write (remember.ts) asks to remember: its statements and their tag,
 * or why it is refused before any scope is chosen.
 */

import { err, ok, type Result } from "../kernel/result";
import { slotOf, slotOfNamed, slotSubjectKey } from "./fact-slot";
import { type MemoryOrigin, normalizeMemoryText, type Sensitivity } from "./memory";
import { learnedInPrivate, originSensitivity, withoutGlobalMarker, withoutShareMarkers } from "./origin";
import { classifyExplicit, type Extracted } from "./rule-extractor";
import type { MemoryKind, ScopeInput } from "./scope";
import {
  dreamSensitivity,
  explicitSensitivity,
  neverStored,
  refusalFor,
  type SensitivityTag,
  stricter,
  stripPrivacyPhrases,
} from "./sensitivity";
import type { Speaker } from "./speaker-name";

/** What the statements are read from: the parts of a remember request (remember.ts) they use. */
export type StatementRequest = {
  readonly text: string;
  readonly origin: Exclude<MemoryOrigin, "dream">;
  readonly kind?: MemoryKind;
  readonly sensitivity?: Sensitivity;
  readonly shared?: boolean;
  /**
   * The speaker asked for privacy within ten minutes of this message (the chat's log marked it,
   * docs/sessions.md#marked-messages): "跟你们说个事，别外传啊", then "记住：我下个月离职". The item
   * is at least this private. Absent = nothing asked around it.
   */
  readonly asked?: Sensitivity;
  readonly scopes: Pick<ScopeInput, "session">;
  readonly speaker: Speaker;
};

/** A request refused before any scope is chosen. */
export type StatementRefusal =
  | { readonly kind: "invalid"; readonly field: string; readonly reason: string }
  | { readonly kind: "credential"; readonly reason: string };

/**
 * What the request asks to remember, before any scope is chosen: refused when empty, too long,
 * a credential, or holding no statement; with its tag (origin.ts): in a shared chat the person's
 * privacy request or the model's argument, else the automatic tagger — a model's "public" never
 * lowers what the tagger noticed; in a private chat at least private, public only by the
 * person's share marker.
 */
export function readStatements(
  req: StatementRequest,
): Result<{ statements: Extracted[]; tag: SensitivityTag }, StatementRefusal> {
  const raw = req.text.trim();
  if (raw === "") return err({ kind: "invalid", field: "text", reason: "is empty" });
  if ([...raw].length > 500)
    return err({ kind: "invalid", field: "text", reason: "is longer than 500 characters" });
  if (neverStored(raw)) {
    return err({ kind: "credential", reason: refusalFor(raw) });
  }
  const privateChat = learnedInPrivate(req.scopes.session);
  const automatic = dreamSensitivity(raw, { privateChat });
  // A privacy phrase is the person's own word. The model's `sensitivity` counts as explicit
  // too, but a model-supplied "public" cannot lower what the automatic tagger noticed.
  const explicit =
    explicitSensitivity(raw) ??
    (req.sensitivity === "public" && automatic !== "public" ? null : (req.sensitivity ?? null));
  const resolved = originSensitivity({
    session: req.scopes.session,
    explicit,
    automatic: [automatic],
    shared: req.shared === true,
  });
  // A request near the message is a floor: it raises the tag, never lowers what the words hold.
  const raised = req.asked && stricter(resolved.sensitivity, req.asked) !== resolved.sensitivity;
  const tag: SensitivityTag = raised && req.asked ? { sensitivity: req.asked, source: "explicit" } : resolved;
  // The person's own markers are instructions, not what to remember.
  const said = req.origin === "explicit" ? withoutGlobalMarker(withoutShareMarkers(raw)) : raw;
  const statements: Extracted[] = req.kind
    ? [{ kind: req.kind, text: stripPrivacyPhrases(said) || said, importance: 0.6, subjectKey: null }].map(
        (st) => ({ ...st, subjectKey: slotKeyOf(st.text, req.speaker) }),
      )
    : classifyExplicit(said, req.speaker);
  if (statements.length === 0)
    return err({ kind: "invalid", field: "text", reason: "has nothing to remember" });
  return ok({ statements, tag });
}

/** The slot subject of a text the model wrote, in the speaker's words or in their name. */
function slotKeyOf(text: string, who: Speaker): string | null {
  const found = slotOf(text, who.name) ?? slotOfNamed(text, who.name);
  return found ? slotSubjectKey(normalizeMemoryText(who.id), found.slot) : null;
}
