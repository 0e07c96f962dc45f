/**
 * People the bot knows (docs/identity.md#people-and-accounts): declared in config (`identity.people`), created by an
 * admin's `/identity link`, or implied by a platform union id. A person id is also a memory
 * scope id, so it is validated like a key.
 */
import { err, ok, type Result } from "../kernel/result";

/** Ids an owner or admin writes: letters, digits, `_`, `.`, `-`; no `:` so they never collide with union persons. */
const PERSON_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export type PersonIdError = { kind: "invalid"; field: string; reason: string };

export function parsePersonId(raw: string): Result<string, PersonIdError> {
  if (typeof raw === "string" && PERSON_ID.test(raw)) return ok(raw);
  return err({
    kind: "invalid",
    field: "person",
    reason: `'${String(raw).slice(0, 64)}' is not a person id (1–64 letters, digits, '_', '.' or '-', starting with a letter or digit)`,
  });
}

/**
 * The key under which a platform union id groups accounts: QQ gives one `union_openid` for
 * the same human in groups (member_openid) and in private chat (user_openid). When no
 * declared or admin-linked person claims a union, the union key itself is the person id
 * (config ids cannot contain ':', so the two never collide).
 */
export function unionKeyOf(channel: string, unionId: string): string {
  return `${channel}:union:${unionId}`;
}
