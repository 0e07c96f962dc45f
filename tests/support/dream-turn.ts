// One turn of a chat as dreaming reads it, for domain tests: 小明 (qq:user:A) said `text`; any
// field can be set by the test.
import type { DreamTurn } from "@src/domain/memory/dreaming";

export const dreamTurn = (text: string, over: Partial<DreamTurn> = {}): DreamTurn => ({
  seq: 1,
  role: "user",
  name: "小明",
  account: "qq:user:A",
  messageId: "m1",
  text,
  ts: 0,
  explicitSensitivity: null,
  identity: null,
  ...over,
});
