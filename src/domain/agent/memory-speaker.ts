/** The speaker of a turn as memory names them. */
import { type Speaker, speakerOf as speakerFrom } from "../memory/speaker-name";
import type { TurnContext } from "./turn-context";

/** The speaker as memory uses it: the name its text says ("小明喜欢猫") and a stable id. */
export function speakerOf(ctx: TurnContext): Speaker {
  return speakerFrom({
    displayName: ctx.sender?.displayName,
    userId: ctx.sender?.userId,
    account: ctx.sender?.account,
    personId: ctx.identity?.personId,
  });
}
