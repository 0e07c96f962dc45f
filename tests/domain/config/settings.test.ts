import {
  DEFAULT_SETTINGS,
  isStored,
  parseSettingsLayer,
  resolveSettings,
  retentionDays,
} from "@src/domain/config/settings";
import { profileOptions } from "@src/domain/knowledge/knowledge-search";
import { describe, it } from "vitest";

it("merges layers over the defaults, objects by key and arrays whole", ({ expect }) => {
  const resolved = resolveSettings({ follow: { groups: ["qq:group:G1"] } }, { retention: { groupDays: 30 } });
  expect(resolved.ok && resolved.value.follow.groups).toEqual(["qq:group:G1"]);
  expect(resolved.ok && resolved.value.retention).toEqual({ groupDays: 30, privateDays: 180 });
  expect(resolved.ok && resolved.value.turn).toEqual(DEFAULT_SETTINGS.turn);
});

it.for([
  [{ retention: { groupDays: 0 } }, "retention.groupDays"],
  [{ follow: { groups: ["G1"] } }, "follow.groups.0"],
  [{ turn: { recentTurns: "12" } }, "turn.recentTurns"],
  [{ nope: 1 }, "(root)"],
  [{ webhook: { maxBodyBytes: 1024, extra: true } }, "webhook"],
])("refuses %j naming the field %s", ([layer, field], { expect }) => {
  const resolved = resolveSettings(layer);
  expect(resolved.ok).toBe(false);
  if (!resolved.ok) expect(resolved.error.field).toBe(field);
});

// JSON.parse keeps "__proto__" as an ordinary key; merged by assignment it would become the
// merged object's prototype, hiding the document's settings behind the defaults and skipping
// the check for unknown keys, so half of a bad document would apply.
it.for([
  ['{"__proto__":{}}', "__proto__"],
  ['{"__proto__":{"retention":{"groupDays":0}}}', "__proto__"],
  ['{"retention":{"groupDays":30},"__proto__":{"memory":{"retrieval":{"softScope":"yes"}}}}', "__proto__"],
  ['{"retention":{"__proto__":{"groupDays":0}}}', "retention.__proto__"],
  [
    '{"knowledge":{"embeddings":{"models":{"__proto__":{"provider":"local"}}}}}',
    "knowledge.embeddings.models.__proto__",
  ],
])("refuses the document %s, naming %s, and leaves the defaults untouched", ([text, field], { expect }) => {
  const layer = parseSettingsLayer(text, "AKASHA_CONFIG");
  expect(layer.ok).toBe(true);
  const resolved = resolveSettings(layer.ok ? layer.value : null);
  expect(resolved.ok).toBe(false);
  if (!resolved.ok) expect(resolved.error.field).toBe(field);
  // Valid settings beside it are refused with it, not applied.
  const withValid = resolveSettings({ retention: { groupDays: 30 } }, layer.ok ? layer.value : null);
  expect(withValid.ok).toBe(false);
  expect(Object.getPrototypeOf(DEFAULT_SETTINGS.retention)).toBe(Object.prototype);
  expect(DEFAULT_SETTINGS.retention.groupDays).toBe(90);
});

it("parses JSON layers and names bad ones", ({ expect }) => {
  expect(parseSettingsLayer("", "AKASHA_CONFIG")).toEqual({ ok: true, value: {} });
  expect(parseSettingsLayer("{", "AKASHA_CONFIG").ok).toBe(false);
  expect(parseSettingsLayer("[1]", "AKASHA_CONFIG")).toEqual({
    ok: false,
    error: { kind: "invalid", field: "AKASHA_CONFIG", reason: "must be a JSON object" },
  });
});

it("stores private chats always and groups only when followed", ({ expect }) => {
  const s = { ...DEFAULT_SETTINGS, follow: { groups: ["qq:group:G1"] } };
  expect(isStored(s, "qq:private:U1", "private")).toBe(true);
  expect(isStored(s, "qq:dm:D1", "dm")).toBe(true);
  expect(isStored(s, "qq:group:G1", "group")).toBe(true);
  expect(isStored(s, "qq:group:G2", "group")).toBe(false);
  expect(isStored({ ...s, follow: { groups: ["*"] } }, "qq:group:G2", "group")).toBe(true);
});

it("uses the chat's retention override, else its type's default", ({ expect }) => {
  expect(retentionDays(DEFAULT_SETTINGS, "group", null)).toBe(90);
  expect(retentionDays(DEFAULT_SETTINGS, "private", null)).toBe(180);
  expect(retentionDays(DEFAULT_SETTINGS, "group", 7)).toBe(7);
});

describe("knowledge settings", () => {
  it("accepts the production layer that reads bge-m3", ({ expect }) => {
    const r = resolveSettings({ knowledge: { embeddings: { read: "bge-m3", write: ["bge-m3"] } } });
    expect(r.ok && r.value.knowledge.embeddings.read).toBe("bge-m3");
  });

  it.for([
    [{ knowledge: { embeddings: { read: "nope" } } }, "knowledge.embeddings.read"],
    [{ knowledge: { embeddings: { write: ["local", "nope"] } } }, "knowledge.embeddings.write.1"],
    [{ knowledge: { search: { limit: 0 } } }, "knowledge.search.limit"],
    [{ knowledge: { autoRecall: { documentEvidence: -1 } } }, "knowledge.autoRecall.documentEvidence"],
  ] as const)("refuses %j naming %s", ([layer, field], { expect }) => {
    const r = resolveSettings(layer);
    expect(r.ok ? null : r.error.field).toBe(field);
  });

  it("keeps automatic KB recall off and stricter than kb_search by default", ({ expect }) => {
    const k = DEFAULT_SETTINGS.knowledge;
    expect(k.autoRecall.enabled).toBe(false);
    expect(k.autoRecall.limit).toBeLessThan(k.search.limit);
    expect(k.autoRecall.tokenBudget).toBeLessThan(k.search.tokenBudget);
    expect(k.autoRecall.minCoverage).toBeGreaterThan(k.search.minCoverage);
  });

  it("leaves document evidence off in both profiles unless a layer weights it", ({ expect }) => {
    const k = DEFAULT_SETTINGS.knowledge;
    expect(profileOptions(k.search).fields.weights.roots).toBe(0);
    expect(profileOptions(k.autoRecall).fields.weights.roots).toBe(0);
    const r = resolveSettings({ knowledge: { search: { documentEvidence: 1 } } });
    expect(r.ok && profileOptions(r.value.knowledge.search).fields.weights.roots).toBe(1);
  });

  it("leaves two-stage search off in both profiles unless a layer sets a size", ({ expect }) => {
    const k = DEFAULT_SETTINGS.knowledge;
    expect(profileOptions(k.search).candidates.twoStageAbove).toBe(0);
    expect(profileOptions(k.autoRecall).candidates.twoStageAbove).toBe(0);
    const r = resolveSettings({ knowledge: { autoRecall: { twoStageAbove: 50_000 } } });
    expect(r.ok && profileOptions(r.value.knowledge.autoRecall).candidates.twoStageAbove).toBe(50_000);
  });
});
