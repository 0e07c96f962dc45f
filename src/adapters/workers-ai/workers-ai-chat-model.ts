/** The ChatModel port over a Workers AI text-generation model, through the `AI` binding. */

import { err, ok, type Result } from "../../domain/kernel/result";
import type { ChatModel, ModelError, ModelRequest, ModelResponse } from "../../domain/model/chat-model";
import { toChatCompletionParams } from "../openai/chat-completion-request";
import { toModelError } from "./workers-ai-error";
import { readWorkersAiOutput } from "./workers-ai-output";

/** The part of the `Ai` binding this adapter uses, typed structurally so tests can pass a fake. */
export type WorkersAiBinding = {
  run(model: string, input: unknown, options?: unknown): Promise<unknown>;
};

export type WorkersAiChatModelOptions = {
  readonly ai: WorkersAiBinding;
  /** Catalog id, e.g. `@cf/qwen/qwen3-30b-a3b-fp8`; kept in config because the catalog churns. */
  readonly model: string;
  /** Passed to `run` as an abort signal. Default 60 s. */
  readonly timeoutMs?: number;
};

const DEFAULT_TIMEOUT_MS = 60_000;

export class WorkersAiChatModel implements ChatModel {
  readonly provider = "workers-ai";
  readonly model: string;
  readonly #ai: WorkersAiBinding;
  readonly #timeoutMs: number;

  constructor(options: WorkersAiChatModelOptions) {
    this.model = options.model;
    this.#ai = options.ai;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /**
   * One completion with OpenAI-style input (`messages`, `tools`, `max_tokens`, `temperature`,
   * `response_format`). Accepts OpenAI-style, legacy and bare-string output. Errors thrown by
   * the binding become ModelErrors (see toModelError); output in no known shape is
   * bad-response. Never throws for remote failures.
   */
  async complete(request: ModelRequest): Promise<Result<ModelResponse, ModelError>> {
    if (!this.model) return err({ kind: "config", message: "no Workers AI chat model is configured" });
    const signal = AbortSignal.timeout(this.#timeoutMs);
    let output: unknown;
    try {
      output = await this.#ai.run(this.model, toChatCompletionParams(request), { signal });
    } catch (error) {
      return err(toModelError(error, signal.aborted));
    }
    const completion = readWorkersAiOutput(output);
    if (!completion.ok) return err({ kind: "bad-response", message: `Workers AI: ${completion.error}` });
    // The output's own `model` is a serving-stack detail; the catalog id is what we configure and bill.
    const { refusal, model: _served, ...response } = completion.value;
    if (refusal && !response.text && response.toolCalls.length === 0) {
      return err({ kind: "refused", message: `Workers AI: the model refused: ${refusal.slice(0, 200)}` });
    }
    return ok({ ...response, model: this.model });
  }
}
