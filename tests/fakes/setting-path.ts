/** A settings path parsed for a test; a path the parser refuses throws. */
import { parseSettingPath } from "../../src/domain/config/settings-edit";

export const settingPath = (raw: string) => {
  const parsed = parseSettingPath(raw);
  if (!parsed.ok) throw new Error(`bad path ${raw}`);
  return parsed.value;
};
