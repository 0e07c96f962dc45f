/**
 * The turns a dreaming run reads (docs/memory.md#dreaming): who said each, what it cites as
 * evidence, and which of them a candidate may come from.
 */

import { PRIVACY_MARK_WINDOW_MS } from "../history/privacy-mark";
import type { SenderIdentity } from "../identity/sender-identity";
import { asksToKeepNothing } from "../privacy/privacy-request";
import { slotOfNamed, slotSubjectKey } from "./fact-slot";
import { type MemoryEvidence, normalizeMemoryText, type Sensitivity } from "./memory";
import { explicitSensitivity, isBarePrivacyMarker, stricter } from "./sensitivity";
import { type Speaker, speakerOf } from "./speaker-name";

export type DreamTurn = {
  readonly seq: number;
  readonly role: "user" | "assistant";
  readonly name: string | null;
  readonly account: string | null;
  readonly messageId: string | null;
  readonly text: string;
  readonly ts: number;
  /**
   * Privacy requested in this turn ("别告诉别人"), recorded when the turn was journaled; for the
   * bot's turn, `private` when its turn held words that must stay in the chat and it may repeat
   * them (src/domain/agent/turn-privacy.ts).
   */
  readonly explicitSensitivity: Sensitivity | null;
  /**
   * The least its words may be, from a request of its speaker near it rather than in it: the
   * request just before it in the run (applyPrivacyMarkers), or the chat's log marking it
   * (the chat object). A floor: it raises what the words hold, never lowers it, and it is not
   * the run's request. Absent = none.
   */
  readonly floor?: Sensitivity | null;
  /** The sender's identity, resolved when the run starts. */
  readonly identity: SenderIdentity | null;
};

export type MarkedTurn = DreamTurn & { readonly skip: boolean };

/** The run a turn is read in: its id and the chat key (session) whose turns these are. */
export type TurnRun = { readonly runId: string; readonly session: string };

/** The user turn a candidate cites; null for the bot's turn, a skipped marker or no such turn. */
export function userTurn(turns: readonly MarkedTurn[], index: number): MarkedTurn | null {
  const t = turns[index];
  return t?.role === "user" && !t.skip ? t : null;
}

/**
 * A bare privacy request ("这个别在别处提") is about the speaker's previous message: that
 * turn takes the requested sensitivity, and the marker itself is not extracted. Any request may
 * also be about what its speaker says next ("跟你们说个事，别外传啊", then "我下个月离职"): their
 * next turn within PRIVACY_MARK_WINDOW_MS takes it as a floor, which never lowers what that turn
 * holds by its own words. A request that nothing be kept ("机器人别记这个", "上面那些都给我忘掉")
 * leaves its own turn, and the speaker's turns just before and after it, unextracted.
 * `later` turns, waiting after the run, are read for their requests about the run's turns and
 * left out of what is returned; any request among them raises its speaker's turn just before it.
 */
export function applyPrivacyMarkers(
  turns: readonly DreamTurn[],
  later: readonly DreamTurn[] = [],
): MarkedTurn[] {
  const out: MarkedTurn[] = [...turns, ...later].map((t) => ({ ...t, skip: false }));
  for (let i = 0; i < out.length; i++) {
    const t = out[i];
    if (t?.role !== "user") continue;
    const bare = isBarePrivacyMarker(t.text);
    const wanted = bare
      ? (t.explicitSensitivity ?? explicitSensitivity(t.text))
      : explicitSensitivity(t.text);
    const nothing = wanted !== null && asksToKeepNothing(t.text);
    if (bare || nothing) out[i] = { ...t, skip: true };
    if (!wanted) continue;
    // A request after the run, of any kind, is about its speaker's turn just before it: when that
    // turn is in the run and within the window, it takes the request's level, so that the run's
    // summary is bounded by it too (strictestRequest).
    const afterRun = i >= turns.length;
    const previous = bare || nothing || afterRun ? speakersTurn(out, i, -1) : -1;
    const prev = out[previous];
    if (prev && (bare || t.ts - prev.ts <= PRIVACY_MARK_WINDOW_MS)) {
      const asked = prev.explicitSensitivity;
      out[previous] = {
        ...prev,
        explicitSensitivity: asked ? stricter(asked, wanted) : wanted,
        skip: prev.skip || nothing,
      };
    }
    const next = speakersTurn(out, i, 1);
    const after = out[next];
    if (after && after.ts - t.ts <= PRIVACY_MARK_WINDOW_MS)
      out[next] = {
        ...after,
        floor: after.floor ? stricter(after.floor, wanted) : wanted,
        skip: after.skip || nothing,
      };
  }
  return out.slice(0, turns.length);
}

/** The index of the same speaker's nearest user turn before (step -1) or after (step 1) turn `i`; -1 if none. */
function speakersTurn(turns: readonly MarkedTurn[], i: number, step: 1 | -1): number {
  const account = turns[i]?.account;
  for (let j = i + step; j >= 0 && j < turns.length; j += step)
    if (turns[j]?.role === "user" && turns[j]?.account === account) return j;
  return -1;
}

/**
 * The most private request any speaker made in the run (after `applyPrivacyMarkers`), or a reply
 * of the bot that may repeat such words holds; null when none. What the model writes from the
 * run — a summary, a candidate it cites under whichever turn — may come from any of its turns,
 * so only this bounds it.
 */
export function strictestRequest(turns: readonly MarkedTurn[]): Sensitivity | null {
  return turns.reduce<Sensitivity | null>((found, t) => {
    const asked = t.explicitSensitivity;
    if (asked === null) return found;
    return found === null ? asked : stricter(found, asked);
  }, null);
}

export function evidenceOf(input: TurnRun, t: DreamTurn): MemoryEvidence {
  return {
    session: input.session,
    messageIds: t.messageId ? [t.messageId] : [],
    account: t.account,
    person: t.identity?.personId ?? null,
    origin: "dream",
    runId: input.runId,
  };
}

/** The subject key of a model-written fact about the speaker of its turn, when it states a slot. */
export function slotKeyOfNamed(text: string, t: DreamTurn | undefined): string | null {
  if (t?.role !== "user") return null;
  const who = speakerOfTurn(t);
  const found = slotOfNamed(text, who.name);
  return found ? slotSubjectKey(normalizeMemoryText(who.id), found.slot) : null;
}

export const speakerOfTurn = (t: DreamTurn): Speaker =>
  speakerOf({
    displayName: t.name,
    userId: t.account?.split(":").at(-1),
    account: t.account,
    personId: t.identity?.personId,
  });
