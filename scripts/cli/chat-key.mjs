// Chat keys are checked with the domain's own parser before any request, so a typo is a clear
// refusal (exit 2) rather than an empty answer.
import { CliError } from "../lib/args.mjs";
import { importTs } from "../lib/ts-import.mjs";
import { t } from "./i18n/lang.mjs";

export async function checkedChatKey(raw) {
  const { parseChatKey } = await importTs("src/domain/chat/chat-address.ts");
  const parsed = parseChatKey(String(raw ?? ""));
  if (!parsed.ok) throw new CliError(t("chatKey.invalid", { raw, reason: parsed.error.reason }));
  return String(raw);
}
