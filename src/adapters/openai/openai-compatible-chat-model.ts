/**
 * The ChatModel port over any OpenAI-compatible `/chat/completions` endpoint (OpenAI,
 * DeepSeek, SiliconFlow, OpenRouter, a local llama.cpp or Ollama server).
 */

import { err, ok, type Result } from "../../domain/kernel/result";
import type { ChatModel, ModelError, ModelRequest, ModelResponse } from "../../domain/model/chat-model";
import { readChatCompletion } from "./chat-completion.schema";
import { toChatCompletionParams } from "./chat-completion-request";

export type OpenAiCompatibleChatModelOptions = {
  /** Up to and including the version, e.g. `https://api.deepseek.com/v1`. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer …`; may be empty for local servers that need no key. */
  readonly apiKey: string;
  readonly model: string;
  readonly fetch: typeof fetch;
  /** Covers the whole call, body included. Default 60 s. */
  readonly timeoutMs?: number;
};

const DEFAULT_TIMEOUT_MS = 60_000;

export class OpenAiCompatibleChatModel implements ChatModel {
  readonly provider = "openai-compatible";
  readonly model: string;
  readonly #baseUrl: string;
  readonly #apiKey: string;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;

  constructor(options: OpenAiCompatibleChatModelOptions) {
    this.model = options.model;
    this.#baseUrl = options.baseUrl.trim().replace(/\/+$/, "");
    this.#apiKey = options.apiKey;
    // workerd throws "Illegal invocation" when its fetch is called as a method of another object.
    const f = options.fetch;
    this.#fetch = (input, init) => f(input, init);
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /**
   * One non-streaming completion. Errors: 429 → rate-limited; 401/403/404 → config (key or
   * model id); other 4xx → refused (retrying the same request will not help); 5xx and network
   * → unavailable; the deadline → timeout; a body that is not a completion → bad-response;
   * an explicit model refusal → refused. Never throws for remote failures.
   */
  async complete(request: ModelRequest): Promise<Result<ModelResponse, ModelError>> {
    if (!this.#baseUrl) return fail("config", "no base URL is configured for the OpenAI-compatible model");
    if (!this.model) return fail("config", "no model id is configured for the OpenAI-compatible model");
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (this.#apiKey) headers.Authorization = `Bearer ${this.#apiKey}`;
    const signal = AbortSignal.timeout(this.#timeoutMs);

    let body: unknown;
    try {
      const response = await this.#fetch(`${this.#baseUrl}/chat/completions`, {
        method: "POST",
        headers,
        body: JSON.stringify({ model: this.model, ...toChatCompletionParams(request) }),
        signal,
      });
      if (!response.ok) return err(await httpError(response));
      body = await response.json();
    } catch (error) {
      if (signal.aborted) return fail("timeout", `no answer within ${this.#timeoutMs} ms`);
      if (error instanceof SyntaxError) return fail("bad-response", "response body is not JSON");
      return fail("unavailable", `request failed: ${describe(error)}`);
    }

    const completion = readChatCompletion(body);
    if (!completion.ok) return fail("bad-response", completion.error);
    const { refusal, model, ...response } = completion.value;
    if (refusal && !response.text && response.toolCalls.length === 0) {
      return fail("refused", `the model refused: ${clip(refusal)}`);
    }
    return ok({ ...response, model: model ?? this.model });
  }
}

async function httpError(response: Response): Promise<ModelError> {
  const status = response.status;
  const detail = await errorDetail(response);
  const message = `HTTP ${status}${detail ? `: ${detail}` : ""}`;
  if (status === 429) return { kind: "rate-limited", message, status };
  if (status === 401 || status === 403 || status === 404) return { kind: "config", message, status };
  if (status === 408) return { kind: "timeout", message, status };
  if (status >= 500) return { kind: "unavailable", message, status };
  return { kind: "refused", message, status };
}

/** The provider's own error text (`{error:{message}}`, `{error:"…"}` or `{message}`), clipped. */
async function errorDetail(response: Response): Promise<string> {
  let text: string;
  try {
    text = await response.text();
  } catch {
    return "";
  }
  try {
    const body: unknown = JSON.parse(text);
    const message = pick(body, "error", "message") ?? pick(body, "error") ?? pick(body, "message");
    if (message) return clip(message);
  } catch {
    // Not JSON: fall through to the raw text.
  }
  return clip(text.trim());
}

function pick(value: unknown, ...path: string[]): string | null {
  let current = value;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return null;
    current = Reflect.get(current, key);
  }
  return typeof current === "string" && current ? current : null;
}

function fail(kind: ModelError["kind"], message: string) {
  return err<ModelError>({ kind, message });
}

function describe(error: unknown): string {
  return clip(error instanceof Error ? error.message : String(error));
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
