/**
 * Extraction through the chat model with a JSON schema (docs/memory.md#dreaming). The model sees the
 * turns of one run and the existing items of the scopes the run may write — nothing else —
 * and answers with candidates, archive requests and an optional conversation summary. Its
 * output is validated whole: anything malformed is an error and writes nothing.
 */
import { z } from "zod";
import { err, ok, type Result } from "../kernel/result";
import type { ChatModel, JsonSchema, ModelRequest, UsageRecord } from "../model/chat-model";
import type { MemoryItem } from "./memory";
import { MEMORY_KINDS } from "./scope";

export type ModelTurn = {
  readonly index: number;
  readonly speaker: string;
  readonly role: "user" | "assistant";
  readonly text: string;
};

const MAX_TEXT = 300;

export const EXTRACTION_SCHEMA: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["memories", "archive", "summary"],
  properties: {
    memories: {
      type: "array",
      maxItems: 20,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["kind", "text", "importance", "turn"],
        properties: {
          kind: { type: "string", enum: [...MEMORY_KINDS] },
          text: { type: "string", maxLength: MAX_TEXT },
          importance: { type: "number", minimum: 0, maximum: 1 },
          turn: { type: "integer", minimum: 0 },
          supersedes: { type: ["string", "null"] },
          sensitivity: { type: ["string", "null"], enum: ["public", "private", "secret_like", null] },
        },
      },
    },
    archive: {
      type: "array",
      maxItems: 20,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["id", "reason"],
        properties: { id: { type: "string" }, reason: { type: "string", maxLength: 200 } },
      },
    },
    summary: { type: ["string", "null"], maxLength: 800 },
  },
};

const OutputSchema = z.object({
  memories: z
    .array(
      z.object({
        kind: z.enum(MEMORY_KINDS),
        text: z.string().trim().min(1).max(MAX_TEXT),
        importance: z.number().min(0).max(1),
        turn: z.number().int().min(0),
        supersedes: z.string().nullish(),
        sensitivity: z.enum(["public", "private", "secret_like"]).nullish(),
      }),
    )
    .max(20),
  archive: z
    .array(z.object({ id: z.string(), reason: z.string().max(200) }))
    .max(20)
    .default([]),
  summary: z.string().max(800).nullish(),
});

export type ModelExtraction = z.infer<typeof OutputSchema>;

export type ExtractionFailure = { readonly kind: "model" | "malformed"; readonly reason: string };

const INSTRUCTIONS = [
  "你负责整理聊天机器人的长期记忆。阅读编号的对话轮次，找出值得长期记住的内容。",
  "kind：preference（某人的喜好）、fact（关于某人的事实）、task（某人的待办）、rule（本聊天自己定的规矩）、",
  "decision（大家做出的决定）、procedure（操作方法）、warning（需要提醒的风险）、summary（对某件事的总结）。",
  "text 用第三人称写清楚是谁（用说话人的名字），一条只说一件事。turn 是这条内容出自的用户轮次编号。",
  "只记用户自己说出的内容；不要记密码、令牌、cookie、密钥之类的凭据。",
  "如果新内容取代了已有记忆，supersedes 填已有记忆的 id；已有记忆明显过时或错误时放进 archive。",
  "sensitivity：私人或敏感的内容标 private，秘密标 secret_like，否则 public 或 null。",
  "summary：用两三句话概括这段对话（没有值得概括的内容时为 null）。只输出符合 JSON schema 的 JSON。",
].join("\n");

export function extractionRequest(
  turns: readonly ModelTurn[],
  existing: readonly MemoryItem[],
): ModelRequest {
  const payload = {
    turns: turns.map((t) => ({ turn: t.index, role: t.role, speaker: t.speaker, text: t.text })),
    existing: existing.map((m) => ({ id: m.nodeId, kind: m.kind, text: m.text })),
  };
  return {
    messages: [
      { role: "system", content: INSTRUCTIONS },
      { role: "user", content: JSON.stringify(payload) },
    ],
    jsonSchema: { name: "memory_extraction", schema: EXTRACTION_SCHEMA },
    temperature: 0,
    maxTokens: 1500,
  };
}

/** Parses and validates the model's answer; code fences around the JSON are tolerated. */
export function parseExtraction(text: string): Result<ModelExtraction, ExtractionFailure> {
  const stripped = text
    .trim()
    .replace(/^```(?:json)?\s*/i, "")
    .replace(/\s*```$/, "");
  let json: unknown;
  try {
    json = JSON.parse(stripped);
  } catch {
    // The parser's message quotes the output, which may quote the chat: not logged.
    return err({ kind: "malformed", reason: "not JSON" });
  }
  const parsed = OutputSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return err({
      kind: "malformed",
      reason: `${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}`,
    });
  }
  return ok(parsed.data);
}

/** Runs the extraction; the usage record is returned either way so it can be logged. */
export async function extractWithModel(
  model: ChatModel,
  turns: readonly ModelTurn[],
  existing: readonly MemoryItem[],
  meta: { chatKey: string; now: () => number },
): Promise<{ result: Result<ModelExtraction, ExtractionFailure>; usage: UsageRecord }> {
  const started = meta.now();
  const response = await model.complete(extractionRequest(turns, existing));
  const usage: UsageRecord = {
    chatKey: meta.chatKey,
    provider: model.provider,
    model: response.ok ? response.value.model : model.model,
    purpose: "dream",
    promptTokens: response.ok ? response.value.usage.promptTokens : null,
    completionTokens: response.ok ? response.value.usage.completionTokens : null,
    latencyMs: Math.max(0, meta.now() - started),
    ok: response.ok,
    errorKind: response.ok ? null : response.error.kind,
    at: meta.now(),
  };
  if (!response.ok) return { result: err({ kind: "model", reason: response.error.kind }), usage };
  return { result: parseExtraction(response.value.text), usage };
}
