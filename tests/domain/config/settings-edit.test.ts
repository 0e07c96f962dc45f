import { DEFAULT_SETTINGS } from "@src/domain/config/settings";
import {
  changedPaths,
  effectiveSettings,
  parseSettingPath,
  replaceStoredLayer,
  setStoredValue,
  unsetStoredValue,
  valueAt,
} from "@src/domain/config/settings-edit";
import { describe, it } from "vitest";
import { settingPath } from "../../fakes/setting-path";

describe("settings edits", () => {
  it("set merges one value into the stored layer and resolves it over the var", ({ expect }) => {
    const layers = { var: { follow: { groups: ["*"] } }, stored: { retention: { groupDays: 30 } } };
    const edit = setStoredValue(layers, settingPath("memory.dreaming.enabled"), false);
    expect(edit.ok && edit.value.stored).toEqual({
      retention: { groupDays: 30 },
      memory: { dreaming: { enabled: false } },
    });
    expect(edit.ok && edit.value.effective.memory.dreaming).toEqual({
      ...DEFAULT_SETTINGS.memory.dreaming,
      enabled: false,
    });
    expect(edit.ok && edit.value.effective.follow.groups).toEqual(["*"]);
    expect(edit.ok && edit.value.effective.retention.groupDays).toBe(30);
  });

  it.for([
    ["a wrong type", "memory.dreaming.enabled", "yes", "memory.dreaming.enabled"],
    ["an unknown key", "memory.dreaming.sometimes", true, "memory.dreaming"],
    ["an out-of-range number", "retention.groupDays", 0, "retention.groupDays"],
    ["an object inside an array", "follow.groups.0", "qq:group:1", "follow.groups"],
  ] as const)("set refuses %s naming the field", ([, raw, value, field], { expect }) => {
    const edit = setStoredValue({ var: {}, stored: null }, settingPath(raw), value);
    expect(edit).toMatchObject({ ok: false, error: { kind: "invalid", field } });
  });

  it("unset removes a path, prunes emptied objects, and says when there was nothing", ({ expect }) => {
    const layers = {
      var: {},
      stored: { memory: { dreaming: { enabled: false } }, retention: { groupDays: 7 } },
    };
    const edit = unsetStoredValue(layers, settingPath("memory.dreaming.enabled"));
    expect(edit.ok && edit.value).toMatchObject({ removed: true, stored: { retention: { groupDays: 7 } } });
    expect(edit.ok && edit.value.effective.memory.dreaming.enabled).toBe(true);
    const none = unsetStoredValue(layers, settingPath("turn.persona"));
    expect(none.ok && none.value.removed).toBe(false);
    expect(none.ok && none.value.stored).toEqual(layers.stored);
  });

  it("unset refuses a removal that leaves the resolution invalid", ({ expect }) => {
    const stored = {
      knowledge: {
        embeddings: {
          models: { extra: { provider: "local", model: "local-hash", version: "1", dims: 64 } },
          read: "extra",
        },
      },
    };
    const edit = unsetStoredValue({ var: {}, stored }, settingPath("knowledge.embeddings.models.extra"));
    expect(edit).toMatchObject({ ok: false, error: { field: "knowledge.embeddings.read" } });
  });

  it("replace takes only a JSON object and validates the whole", ({ expect }) => {
    expect(replaceStoredLayer({ var: {}, stored: null }, [1])).toMatchObject({
      ok: false,
      error: { field: "(root)" },
    });
    expect(replaceStoredLayer({ var: {}, stored: null }, { bogus: 1 })).toMatchObject({
      ok: false,
      error: { field: "(root)", reason: "unknown setting 'bogus'" },
    });
  });

  it("effective settings ignore an invalid stored layer whole and say why", ({ expect }) => {
    const current = effectiveSettings({
      var: {},
      stored: { retention: { groupDays: 5, privateDays: -1 } },
    });
    expect(current.ok && current.value.settings.retention).toEqual(DEFAULT_SETTINGS.retention);
    expect(current.ok && current.value.storedError).toMatchObject({ field: "retention.privateDays" });
  });

  it.for(["", "a..b", " memory. dreaming", "a b", Array(10).fill("x").join(".")])(
    "refuses the path %j",
    (raw, { expect }) => {
      expect(parseSettingPath(raw).ok).toBe(false);
    },
  );

  it("reads values by path, array indexes included, and lists changed leaves", ({ expect }) => {
    expect(valueAt({ a: { b: [1, 2] } }, ["a", "b", "1"])).toEqual({ found: true, value: 2 });
    expect(valueAt({ a: {} }, ["a", "c"]).found).toBe(false);
    expect(changedPaths({ a: { b: 1, c: [1] } }, { a: { b: 2, c: [1] }, d: true })).toEqual(["a.b", "d"]);
    expect(changedPaths({}, { m: { d: { e: false } }, r: 1 })).toEqual(["m.d.e", "r"]);
  });
});
