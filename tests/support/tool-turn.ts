// One turn in which the model calls one tool and then answers: what the tool said back to the
// model and what the turn audited, for the tests of a tool's rules.
import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { runTurn } from "@src/domain/agent/turn";
import type { TurnContext } from "@src/domain/agent/turn-context";
import type { TurnPorts } from "@src/domain/agent/turn-services";
import { callingOneTool } from "../fakes/scripted-chat-model";
import { turnPorts } from "../fakes/turn-ports";

export async function oneToolCall(
  name: string,
  args: Record<string, unknown>,
  context: TurnContext,
  ports: Partial<TurnPorts> = {},
) {
  const model = callingOneTool(name, args, { text: "好的" });
  const result = await runTurn(context, turnPorts({ ...ports, model }), defaultTurnRegistry());
  if (!result.ok) throw new Error("turn failed");
  const answer = model.requests[1]?.messages.find((m) => m.role === "tool")?.content ?? "";
  return { answer, audit: result.value.audit };
}
