import { applyCredentialCues, type CredentialCues } from "@src/domain/privacy/announced-credential";
import { messageEvent } from "../fakes/inbound";

/**
 * The texts one group member's messages keep when read in order, a second apart, through the
 * credential cues each leaves for the next (a value sent after "密码是" is masked).
 */
export function throughCredentialCues(messages: readonly string[]): string[] {
  let cues: CredentialCues = {};
  return messages.map((text, i) => {
    const out = applyCredentialCues(
      messageEvent({ chat: "qq:group:G1", sender: "U1", text }),
      cues,
      1_700_000_000_000 + i * 1000,
    );
    cues = out.cues;
    return out.event.message?.text ?? "";
  });
}
