/**
 * The chat model's profile (docs/memory.md#person-profiles): when a turn reads a profile the
 * items' own words wrote, it asks for a rewrite (`want`, no I/O); later, off the turn's path,
 * the chat object's alarm asks the model to write it as a short natural text from that
 * audience's items alone. The answer is saved only while the version it was asked at is still
 * current — a write to the items in between wins — and only if it passes `checkRewrite`;
 * otherwise the extractive text stays.
 */
import type { Result } from "../kernel/result";
import type { ChatModel, UsageRecord } from "../model/chat-model";
import { containsCredential } from "../privacy/credentials";
import type { ReadableScope } from "../retrieval/read-gate";
import type { MemoryStore } from "./memory-store";
import { AUDIENCE_LEVELS, composeProfile, PROFILE_MAX_CHARS, profileItems } from "./person-profile";
import type { ProfileKey, ProfileRewrites, ProfileStore } from "./profile-store";
import { parseScopeKey } from "./scope";

/** Profiles waiting for the model, at most a few: the next turn asks again for any dropped. */
export class ProfileRewriteQueue implements ProfileRewrites {
  readonly #waiting = new Map<string, ProfileKey>();
  constructor(readonly max = 16) {}
  want(key: ProfileKey): void {
    if (this.#waiting.size < this.max) this.#waiting.set(`${key.audience}/${key.subject}`, key);
  }
  take(n: number): ProfileKey[] {
    const out = [...this.#waiting.values()].slice(0, n);
    for (const k of out) this.#waiting.delete(`${k.audience}/${k.subject}`);
    return out;
  }
  get size(): number {
    return this.#waiting.size;
  }
}

export type RewriteDeps = {
  readonly profiles: ProfileStore;
  readonly store: Pick<MemoryStore, "listActive">;
  readonly model: ChatModel;
};

export type RewriteOutcome =
  | { readonly done: "saved" | "refused" | "superseded" | "not-needed" }
  | { readonly done: "failed"; readonly reason: string };

const INSTRUCTION = `把下面这些关于同一个人的记忆，改写成一段简短自然的人物画像（不超过 ${PROFILE_MAX_CHARS} 字）。
只能使用下面写出的内容：不要添加、推测或改动任何事实，不要提到记忆、列表或你自己。只输出画像正文。`;

/** The reader of a profile's audience over its scopes: the levels the profile is built from. */
function audienceReader(key: ProfileKey): ReadableScope[] {
  const levels = AUDIENCE_LEVELS[key.audience];
  return key.scopes.flatMap((raw) => {
    const scope = parseScopeKey(raw);
    return scope ? [{ ...scope, sensitivities: levels }] : [];
  });
}

/** Numbers and Latin words: the details a rewrite most easily invents (an age, a place, a brand). */
const DETAILS = /\p{Nd}+|\p{Script=Latin}{2,}/gu;

/**
 * The model's answer, or why it is refused: empty, over the cap, holding a credential, or
 * naming a number or a Latin word the items do not hold. Whether a Chinese phrase is new is
 * not judged: connecting words are, and the instruction forbids new facts.
 */
export function checkRewrite(text: string, input: string): Result<string, string> {
  const t = text.replace(/\s+/gu, " ").trim();
  if (!t) return { ok: false, error: "empty" };
  if ([...t].length > PROFILE_MAX_CHARS) return { ok: false, error: "too-long" };
  if (containsCredential(t)) return { ok: false, error: "credential" };
  const held = input.normalize("NFKC").toLowerCase();
  // Compared NFKC-folded: a full-width "３２" is the number 32.
  for (const detail of t.normalize("NFKC").match(DETAILS) ?? []) {
    if (!held.includes(detail.toLowerCase())) return { ok: false, error: "new-detail" };
  }
  return { ok: true, value: t };
}

/**
 * One rewrite: reads the saved profile's version, then the audience's items, asks the model,
 * and saves its checked answer at that version (a newer write makes the save a no-op).
 */
export async function rewriteProfile(
  deps: RewriteDeps,
  key: ProfileKey,
  chatKey: string,
  now: () => number,
): Promise<{ outcome: RewriteOutcome; usage: UsageRecord | null }> {
  const saved = await deps.profiles.read(key);
  if (!saved.text || saved.by !== "extract") return { outcome: { done: "not-needed" }, usage: null };
  // Built again from the items, not taken from the saved text: only what this audience may read.
  const built = composeProfile(await profileItems(deps.store, audienceReader(key), key.audience));
  if (built.items === 0) return { outcome: { done: "not-needed" }, usage: null };
  const started = now();
  const answer = await deps.model.complete({
    messages: [
      { role: "system", content: INSTRUCTION },
      { role: "user", content: built.text },
    ],
    maxTokens: 400,
    temperature: 0.3,
  });
  const usage: UsageRecord = {
    chatKey,
    provider: deps.model.provider,
    model: answer.ok ? answer.value.model : deps.model.model,
    purpose: "profile",
    promptTokens: answer.ok ? answer.value.usage.promptTokens : null,
    completionTokens: answer.ok ? answer.value.usage.completionTokens : null,
    latencyMs: now() - started,
    ok: answer.ok,
    errorKind: answer.ok ? null : answer.error.kind,
    at: now(),
  };
  if (!answer.ok) return { outcome: { done: "failed", reason: answer.error.kind }, usage };
  const checked = checkRewrite(answer.value.text, built.text);
  const rewrite = checked.ok
    ? ({ by: "model", text: checked.value, items: built.items } as const)
    : ({ by: "kept" } as const);
  const kept = await deps.profiles.rewrite(key, saved.version, rewrite, now());
  if (!kept) return { outcome: { done: "superseded" }, usage };
  return { outcome: { done: checked.ok ? "saved" : "refused" }, usage };
}
