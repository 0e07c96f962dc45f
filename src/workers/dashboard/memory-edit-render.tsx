/**
 * One item's edit page as the Memory routes answer with it: the item, the CSRF token, the decay
 * settings in effect and the time now (for its age weight), and a notice or a refusal.
 */
import type { Context } from "hono";
import type { MemoryItem } from "../../domain/memory/memory";
import type { AppEnv } from "../app-env";
import { MemoryEditPage } from "./memory-page";
import { pageContext } from "./page-context";
import { render } from "./page-render";

export async function renderEditPage(
  c: Context<AppEnv>,
  item: MemoryItem,
  extra: { notice?: string; error?: string; status?: 400 } = {},
) {
  const view = await c.get("services").settings.read();
  return render(
    c,
    "/admin/memory",
    c.get("i18n").t("memory.edit"),
    <MemoryEditPage
      item={item}
      csrf={(await pageContext(c)).csrf}
      decay={view.effective.memory.decay}
      now={Date.now()}
      {...(extra.notice ? { notice: extra.notice } : {})}
      {...(extra.error ? { error: extra.error } : {})}
    />,
    extra.status ?? 200,
  );
}
