// Which chat a QQ event belongs to is taken from the platform only when it is certain
// (docs/invariants.md#an-event-is-taken-only-when-its-chat-and-sender-are-certain): a guild
// message whose payload contradicts its event type is dropped, and an id a chat or account key
// is built from must form one exactly.

import { describe, it } from "vitest";
import {
  C2C_EXAMPLE,
  DELETE_NOTICE,
  DIRECT_MESSAGE,
  dispatch,
  FRIEND_NOTICE,
  GROUP_AT_EXAMPLE,
  GROUP_NOTICE,
  GUILD_MESSAGE,
  reject,
} from "./qq-event-payloads";

describe("toInboundEvent: what it cannot place", () => {
  it.for([
    [
      "a DM whose session guild is its source guild",
      "DIRECT_MESSAGE_CREATE",
      { src_guild_id: "18700000000001" },
    ],
    ["a DM marked as not direct", "DIRECT_MESSAGE_CREATE", { direct_message: false }],
    ["a channel message marked direct", "AT_MESSAGE_CREATE", { direct_message: true }],
    ["a channel message marked direct", "MESSAGE_CREATE", { direct_message: true }],
  ] as const)("ignores %s (%s): its chat is not certain", async ([_what, t, fields], { expect }) => {
    // qq:dm:<guild_id> is one person's chat only because the DM session's guild is that
    // person's alone; keyed by a real guild, every member who writes to the bot from it would
    // share one "private" chat and read each other's private memory there.
    const base = t === "DIRECT_MESSAGE_CREATE" ? DIRECT_MESSAGE : GUILD_MESSAGE;
    const error = reject(dispatch(t, { ...base, ...fields }));
    expect(error).toEqual({ kind: "ignored", reason: `${t}: the guild message's scene is contradictory` });
  });

  it("takes a DM with direct_message true or absent and another source guild (the control)", async ({
    expect,
  }) => {
    const { direct_message: _d, src_guild_id: _s, ...bare } = DIRECT_MESSAGE;
    for (const d of [DIRECT_MESSAGE, bare, { ...GUILD_MESSAGE, direct_message: false }]) {
      const t = d === DIRECT_MESSAGE || d === bare ? "DIRECT_MESSAGE_CREATE" : "AT_MESSAGE_CREATE";
      expect(reject(dispatch(t, d))).toBeNull();
    }
  });

  it.for([
    ["GROUP_AT_MESSAGE_CREATE", "group_openid"],
    ["GROUP_AT_MESSAGE_CREATE", "author.member_openid"],
    ["GROUP_MESSAGE_CREATE", "group_openid"],
    ["GROUP_MESSAGE_CREATE", "author.member_openid"],
    ["C2C_MESSAGE_CREATE", "author.user_openid"],
    ["AT_MESSAGE_CREATE", "channel_id"],
    ["AT_MESSAGE_CREATE", "author.id"],
    ["MESSAGE_CREATE", "channel_id"],
    ["DIRECT_MESSAGE_CREATE", "guild_id"],
    ["DIRECT_MESSAGE_CREATE", "author.id"],
    ["GROUP_ADD_ROBOT", "group_openid"],
    ["GROUP_ADD_ROBOT", "op_member_openid"],
    ["FRIEND_ADD", "openid"],
    ["DIRECT_MESSAGE_DELETE", "message.guild_id"],
    ["MESSAGE_DELETE", "message.channel_id"],
  ] as const)(
    "refuses %s whose %s is missing, empty, spaced or holds ':' as invalid",
    async ([t, field], { expect }) => {
      // A chat or account key is built from these ids; one that cannot be built exactly is no
      // chat and no one, and `qq:group:X:private:Y` must never be a key a group can produce.
      const payloads: Record<string, unknown> = {
        GROUP_AT_MESSAGE_CREATE: GROUP_AT_EXAMPLE.d,
        GROUP_MESSAGE_CREATE: { ...GROUP_AT_EXAMPLE.d, mentions: [] },
        C2C_MESSAGE_CREATE: C2C_EXAMPLE.d,
        AT_MESSAGE_CREATE: GUILD_MESSAGE,
        MESSAGE_CREATE: GUILD_MESSAGE,
        DIRECT_MESSAGE_CREATE: DIRECT_MESSAGE,
        GROUP_ADD_ROBOT: GROUP_NOTICE,
        FRIEND_ADD: FRIEND_NOTICE,
        DIRECT_MESSAGE_DELETE: DELETE_NOTICE,
        MESSAGE_DELETE: DELETE_NOTICE,
      };
      expect(reject(dispatch(t, payloads[t])), "the unchanged payload (the control)").toBeNull();
      for (const value of [undefined, "", " ", "G1:private:U1", "has space"]) {
        const error = reject(dispatch(t, withField(payloads[t], field, value)));
        expect(error?.kind, `${field} = ${JSON.stringify(value)}`).toBe("invalid");
      }
    },
  );
});

/** A copy of `payload` with the dotted `path` set to `value` (removed when undefined). */
function withField(payload: unknown, path: string, value: string | undefined): unknown {
  const copy = structuredClone(payload) as Record<string, unknown>;
  const keys = path.split(".");
  const last = keys.pop() ?? "";
  let at = copy;
  for (const key of keys) at = at[key] as Record<string, unknown>;
  if (value === undefined) delete at[last];
  else at[last] = value;
  return copy;
}
