/** A ChatModel that answers from a script and records every request it got. */

import { err, ok, type Result } from "../../src/domain/kernel/result";
import type { ChatModel, ModelError, ModelRequest, ModelResponse } from "../../src/domain/model/chat-model";

export type ScriptStep =
  | Partial<ModelResponse>
  | { error: ModelError }
  | ((req: ModelRequest) => Promise<Partial<ModelResponse>>);

export class ScriptedChatModel implements ChatModel {
  readonly provider = "scripted";
  readonly model = "scripted-1";
  readonly requests: ModelRequest[] = [];
  readonly #steps: ScriptStep[];
  constructor(steps: ScriptStep[]) {
    this.#steps = [...steps];
  }

  async complete(request: ModelRequest): Promise<Result<ModelResponse, ModelError>> {
    this.requests.push(request);
    const step = this.#steps.shift() ?? { text: "…" };
    if (typeof step === "object" && "error" in step) return err(step.error);
    const partial = typeof step === "function" ? await step(request) : step;
    return ok({
      text: "",
      toolCalls: [],
      usage: { promptTokens: 10, completionTokens: 5 },
      model: this.model,
      finishReason: "stop",
      ...partial,
    });
  }
}

/** A model that calls one tool with these arguments, then answers `text`. */
export function callingOneTool(
  name: string,
  args: Record<string, unknown>,
  { id = "c1", text = "好" }: { id?: string; text?: string } = {},
): ScriptedChatModel {
  return new ScriptedChatModel([{ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] }, { text }]);
}
