/**
 * The chat's credential cues (announced-credential.ts): the senders whose last message
 * announced a credential or held one, so that a value sent right after "密码是", or a correction
 * right after a value ("打错了 …"), is masked too. Read from
 * `meta` once per wake and written through: the ACK path reads no storage for them.
 */
import type { CredentialCues } from "../domain/privacy/announced-credential";
import type { ChatMeta } from "./chat-meta";

/** The meta key of the cues. */
const CREDENTIAL_CUES = "credentialCues";

export class CredentialCueBook {
  readonly #meta: ChatMeta;
  #cues: CredentialCues | null = null;

  constructor(meta: ChatMeta) {
    this.#meta = meta;
  }

  current(): CredentialCues {
    this.#cues ??= this.#meta.get<CredentialCues>(CREDENTIAL_CUES) ?? {};
    return this.#cues;
  }

  /** Keeps `cues` if they differ from the current ones. */
  keep(cues: CredentialCues): void {
    if (JSON.stringify(cues) === JSON.stringify(this.current())) return;
    this.#meta.set(CREDENTIAL_CUES, cues);
    this.#cues = cues;
  }
}
