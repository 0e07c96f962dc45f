/**
 * The follow list and admin list pages under /admin/follow and /admin/admins: read and changed
 * through the request's owner service, the same one `/api/follow`, `/api/admins` and the CLI
 * use, so every change is one settings edit — validated whole, compare-and-set, audited with
 * the acting admin. A refused change answers 400 with the page, the typed value kept.
 */
import { type Context, Hono } from "hono";
import type { ListChange } from "../../domain/config/setting-lists";
import type { AppEnv } from "../app-env";
import type { MessageKey } from "./i18n/i18n";
import { AdminsPage, FollowPage } from "./owner-pages";
import { pageContext } from "./page-context";
import { render } from "./page-render";

type Extra = { notice?: string; error?: string; typed?: string; fieldError?: string };

/**
 * What both list pages show of a request: the typed value and its field error kept, the
 * notices, the reason the list could not be read, and the form's CSRF token.
 */
async function formState(
  c: Context<AppEnv>,
  extra: Extra,
  found: { ok: true } | { ok: false; error: { reason: string } },
) {
  return {
    typed: extra.typed ?? "",
    fieldError: extra.fieldError,
    notice: extra.notice,
    error: extra.error ?? (found.ok ? undefined : found.error.reason),
    csrf: (await pageContext(c)).csrf,
  };
}

const GROUP_TYPES = new Set(["group", "channel"]);

async function followPage(c: Context<AppEnv>, extra: Extra = {}, status: 200 | 400 | 409 = 200) {
  const services = c.get("services");
  const [found, chats] = await Promise.all([services.owner.follows(), services.chats.list()]);
  const groups = found.ok ? found.value.groups : [];
  const unfollowed = chats.filter((ch) => GROUP_TYPES.has(ch.targetType) && !groups.includes(ch.chatKey));
  return render(
    c,
    "/admin/follow",
    c.get("i18n").t("nav.follow"),
    <FollowPage groups={groups} unfollowed={unfollowed} {...(await formState(c, extra, found))} />,
    status,
  );
}

async function adminsPage(c: Context<AppEnv>, extra: Extra = {}, status: 200 | 400 | 409 = 200) {
  const found = await c.get("services").owner.admins();
  const value = found.ok ? found.value : { admins: [], fromConfig: [], identityEnabled: false };
  return render(
    c,
    "/admin/admins",
    c.get("i18n").t("nav.admins"),
    <AdminsPage
      admins={value.admins}
      fromConfig={value.fromConfig}
      identityEnabled={value.identityEnabled}
      {...(await formState(c, extra, found))}
    />,
    status,
  );
}

/** The lists these pages edit; privacy.doNotRecord has its own panel on the Identity page. */
type PageList = Exclude<ListChange["path"], "privacy.doNotRecord">;

const NOTICES: Record<PageList, Record<ListChange["op"], [MessageKey, MessageKey]>> = {
  "follow.groups": { add: ["follow.added", "follow.already"], remove: ["follow.removed", "follow.notThere"] },
  "identity.admins": {
    add: ["admins.added", "admins.already"],
    remove: ["admins.removed", "admins.notThere"],
  },
};

async function change(c: Context<AppEnv>, path: PageList, op: ListChange["op"]) {
  const field = path === "follow.groups" ? "chat" : "account";
  const page = path === "follow.groups" ? followPage : adminsPage;
  const form = await c.req.parseBody();
  const entry = typeof form[field] === "string" ? (form[field] as string).trim() : "";
  const t = c.get("i18n").t;
  if (!entry) return page(c, { fieldError: t("owner.required") }, 400);
  const done = await c.get("services").owner.changeList({ path, op, entry });
  if (!done.ok) {
    const typed = op === "add" ? entry : "";
    if (done.error.kind === "conflict") return page(c, { typed, error: t("settings.stale") }, 409);
    return page(c, { typed, fieldError: done.error.reason }, 400);
  }
  const [changed, unchanged] = NOTICES[path][op];
  let notice = t(done.value.changed ? changed : unchanged, { entry });
  if (done.value.enabledIdentity) notice += ` ${t("admins.identityEnabled")}`;
  const back = path === "follow.groups" ? "/admin/follow" : "/admin/admins";
  return c.redirect(`${back}?notice=${encodeURIComponent(notice)}`, 303);
}

const noticeOf = (c: Context<AppEnv>) => {
  const notice = c.req.query("notice");
  return notice ? { notice } : {};
};

export const ownerPageRoutes = new Hono<AppEnv>()
  .get("/follow", (c) => followPage(c, noticeOf(c)))
  .post("/follow/add", (c) => change(c, "follow.groups", "add"))
  .post("/follow/remove", (c) => change(c, "follow.groups", "remove"))
  .get("/admins", (c) => adminsPage(c, noticeOf(c)))
  .post("/admins/add", (c) => change(c, "identity.admins", "add"))
  .post("/admins/remove", (c) => change(c, "identity.admins", "remove"));
