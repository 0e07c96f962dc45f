import { mergeObservations, observationOf } from "@src/domain/identity/account-observation";
import { it } from "vitest";
import { messageEvent } from "../../fakes/inbound";

it("builds an observation from a message with a sender, and none otherwise", ({ expect }) => {
  const event = messageEvent({ chat: "qq:group:G1", text: "hi", sender: "M1", name: "  小明  ", ts: 5 });
  const withUnion = { ...event, sender: event.sender && { ...event.sender, unionId: "U1", role: "owner" } };
  expect(observationOf(withUnion, 9)).toEqual({
    account: "qq:user:M1",
    chatKey: "qq:group:G1",
    userId: "M1",
    unionKey: "qq:union:U1",
    displayName: "小明",
    role: "owner",
    firstSeen: 5,
    lastSeen: 5,
  });
  expect(observationOf({ ...event, sender: null }, 9)).toBeNull();
  expect(observationOf({ ...event, kind: "message_deleted" }, 9)).toBeNull();
  const long = messageEvent({ chat: "qq:group:G1", text: "hi", name: "名".repeat(100) });
  expect([...(observationOf(long, 9)?.displayName ?? "")]).toHaveLength(64);
});

it("merges observations keeping the earliest first sight and the latest name", ({ expect }) => {
  const base = observationOf(messageEvent({ chat: "qq:group:G1", text: "x", sender: "M1", ts: 10 }), 0);
  if (!base) throw new Error("no observation");
  const later = { ...base, displayName: "新", role: null, unionKey: null, firstSeen: 20, lastSeen: 20 };
  const earlier = {
    ...base,
    displayName: "旧",
    role: "member",
    unionKey: "qq:union:U",
    firstSeen: 10,
    lastSeen: 10,
  };
  const expected = {
    ...base,
    displayName: "新",
    role: "member",
    unionKey: "qq:union:U",
    firstSeen: 10,
    lastSeen: 20,
  };
  expect(mergeObservations(earlier, later)).toEqual(expected);
  expect(mergeObservations(later, earlier)).toEqual(expected);
});
