// The one catalogue: both languages complete, the same placeholders, every key the settings
// form builds at run time present (those keys are strings, so the compiler cannot check them).

import { en } from "@src/workers/dashboard/i18n/catalogue-en";
import { zhCN } from "@src/workers/dashboard/i18n/catalogue-zh";
import { translator } from "@src/workers/dashboard/i18n/i18n";
import {
  fieldHelp,
  fieldKind,
  fieldLabel,
  groupTitle,
  SETTINGS_GROUPS,
  unitLabel,
} from "@src/workers/dashboard/settings-form";
import { describe, it } from "vitest";

const placeholders = (message: string) => [...message.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const HAN = /[\u4e00-\u9fff]/;

describe("the dashboard catalogue", () => {
  it("has every key in both languages, none empty", ({ expect }) => {
    const zhKeys = Object.keys(zhCN).sort();
    const enKeys = Object.keys(en).sort();
    expect(
      zhKeys.filter((k) => !enKeys.includes(k)),
      "missing in English",
    ).toEqual([]);
    expect(
      enKeys.filter((k) => !zhKeys.includes(k)),
      "missing in Chinese",
    ).toEqual([]);
    for (const [key, message] of [...Object.entries(zhCN), ...Object.entries(en)])
      expect(message.trim(), key).not.toBe("");
  });

  it("uses the same placeholders in both languages", ({ expect }) => {
    for (const key of Object.keys(zhCN) as (keyof typeof zhCN)[])
      expect(placeholders(en[key]), key).toEqual(placeholders(zhCN[key]));
  });

  it("is Chinese in Chinese: a message of more than one Latin word holds Chinese too", ({ expect }) => {
    // The switch link names the other language on purpose.
    const latinOnly = Object.entries(zhCN).filter(
      ([key, m]) => key !== "layout.switchToTitle" && /[A-Za-z]{3,}\s+[A-Za-z]{3,}/.test(m) && !HAN.test(m),
    );
    expect(latinOnly).toEqual([]);
  });

  it("has the label, help, group and unit of every settings field", ({ expect }) => {
    const keys = new Set(Object.keys(zhCN));
    for (const group of SETTINGS_GROUPS) {
      expect(keys.has(groupTitle(group.key)), group.key).toBe(true);
      for (const field of group.fields) {
        expect(keys.has(fieldLabel(field.path)), field.path).toBe(true);
        expect(keys.has(fieldHelp(field.path)), field.path).toBe(true);
        if (field.unit) expect(keys.has(unitLabel(field.unit)), field.unit).toBe(true);
        expect(() => fieldKind(field.path), field.path).not.toThrow();
      }
    }
  });

  it("fills placeholders and leaves unknown ones as written", ({ expect }) => {
    const t = translator("zh-CN");
    expect(t("settings.err.range", { min: 1, max: 3650 })).toBe("应在 1 到 3650 之间。");
    expect(translator("en")("settings.err.range", { min: 1 })).toBe("Must be between 1 and {max}.");
  });
});
