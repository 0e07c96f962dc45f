/**
 * Step 1 of a dreaming run (docs/memory.md#dreaming): the candidates its turns state, from the
 * model (JSON schema) or, offline, from the rules.
 */

import type { Logger } from "../kernel/logger";
import { err, ok, type Result } from "../kernel/result";
import type { ChatModel, UsageRecord } from "../model/chat-model";
import { type MarkedTurn, slotKeyOfNamed, speakerOfTurn, type TurnRun } from "./dream-turn";
import { clampImportance, type MemoryItem, type Sensitivity } from "./memory";
import { extractWithModel, type ModelTurn } from "./model-extractor";
import { extractStatements } from "./rule-extractor";

export type Candidate = {
  readonly kind: string;
  readonly text: string;
  readonly importance: number;
  readonly turn: number;
  readonly subjectKey: string | null;
  readonly supersedes: string | null;
  readonly hint: Sensitivity | null;
};

/** What one run extracted: candidates, the model's archive requests, a summary, its usage. */
export type Extraction = {
  readonly candidates: readonly Candidate[];
  readonly archiveRequests: readonly { readonly id: string; readonly reason: string }[];
  readonly summaryText: string | null;
  readonly usage: UsageRecord | null;
};

/** Why the model's extraction failed, with what it cost. */
export type ExtractionError = {
  readonly kind: "model" | "malformed";
  readonly reason: string;
  readonly usage: UsageRecord | null;
};

/** Step 1: the model (JSON schema) or, offline, the rules; null when no turn is extractable. */
export async function extractCandidates(
  input: TurnRun & { readonly useModel: boolean },
  turns: readonly MarkedTurn[],
  existing: readonly MemoryItem[],
  deps: { readonly model: ChatModel; readonly logger: Logger; readonly now: () => number },
): Promise<Result<Extraction | null, ExtractionError>> {
  const extractable = turns.map((t, index) => ({ t, index })).filter(({ t }) => t.role === "user" && !t.skip);
  if (extractable.length === 0) return ok(null);
  if (input.useModel) {
    const modelTurns: ModelTurn[] = turns.map((t, index) => ({
      index,
      role: t.role,
      speaker: t.role === "assistant" ? "bot" : speakerOfTurn(t).name,
      text: t.text,
    }));
    const extracted = await extractWithModel(deps.model, modelTurns, existing, {
      chatKey: input.session,
      now: deps.now,
    });
    const usage = extracted.usage;
    if (!extracted.result.ok) {
      deps.logger.warn("dreaming extraction failed; nothing written", {
        run: input.runId,
        kind: extracted.result.error.kind,
        reason: extracted.result.error.reason,
      });
      return err({ ...extracted.result.error, usage });
    }
    const out = extracted.result.value;
    const candidates = out.memories.map((m) => ({
      kind: m.kind,
      text: m.text,
      importance: clampImportance(m.importance, 0.5),
      turn: m.turn,
      // The model's wording names the speaker: its slot closes that person's earlier value.
      subjectKey: slotKeyOfNamed(m.text, turns[m.turn]),
      supersedes: m.supersedes ?? null,
      hint: m.sensitivity ?? null,
    }));
    return ok({ candidates, archiveRequests: out.archive, summaryText: out.summary?.trim() || null, usage });
  }
  const candidates = extractable.flatMap(({ t, index }) =>
    extractStatements(t.text, speakerOfTurn(t)).map((e) => ({
      kind: e.kind,
      text: e.text,
      importance: e.importance,
      turn: index,
      subjectKey: e.subjectKey,
      supersedes: null,
      hint: null,
    })),
  );
  return ok({ candidates, archiveRequests: [], summaryText: null, usage: null });
}
