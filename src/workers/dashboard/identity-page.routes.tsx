/** The Identity page and its link/unlink forms (the admin guard has checked the CSRF token). */

import { type Context, Hono } from "hono";
import type { LeaveOutResult } from "../../composition/request/privacy-service";
import type { DomainError } from "../../domain/kernel/result";
import type { SessionOperation } from "../../domain/sessions/session-operation";
import { requestLine } from "../admin-input/request-line";
import type { AppEnv } from "../app-env";
import type { PendingForget } from "./forget-person-panel";
import type { Translate } from "./i18n/i18n";
import { IdentityPage } from "./identity-page";
import { pageContext } from "./page-context";
import { render } from "./page-render";
import { PersonProfilesPage } from "./person-profiles-page";

const field = (v: unknown) => (typeof v === "string" ? v.trim() : "");
const said = (e: DomainError) => (e.kind === "invalid" ? `${e.field} ${e.reason}` : e.kind);
/** What really happened, counted: the same facts the CLI prints. */
function leaveOutNotice(t: Translate, r: LeaveOutResult): string {
  const head = t(r.changed ? "leaveOut.added" : "leaveOut.already", { account: r.account });
  const f = r.forgotten;
  if (!f) return r.changed ? `${head}${t("leaveOut.kept")}` : head;
  if (f.notDone.length > 0)
    return `${head}${t("leaveOut.notDone", { count: f.notDone.length, chats: f.notDone.join("、") })}`;
  const linked = f.linkedPerson ? t("leaveOut.linked", { person: f.linkedPerson }) : "";
  const { messages, memory, candidates, observations } = f;
  return `${head}${t("leaveOut.forgot", { messages, memory, candidates, observations })}${linked}`;
}
const run = (c: Context<AppEnv>, op: SessionOperation, body?: unknown) =>
  c.get("services").sessions.run(op, requestLine(c, body));

async function identityPage(
  c: Context<AppEnv>,
  extra: {
    notice?: string;
    error?: string;
    typed?: { account: string; person: string };
    forget?: PendingForget;
  } = {},
) {
  const { identity, privacy } = c.get("services");
  const [overview, reports, listed] = await Promise.all([
    identity.overview(),
    identity.readers(),
    privacy.list(),
  ]);
  const leftOut = listed.ok ? listed.value : { accounts: [], fromConfig: [] };
  return render(
    c,
    "/admin/identity",
    c.get("i18n").t("nav.identity"),
    <IdentityPage
      overview={overview}
      reports={reports}
      leftOut={leftOut}
      csrf={(await pageContext(c)).csrf}
      {...extra}
    />,
    extra.error ? 400 : 200,
  );
}

export const identityPageRoutes = new Hono<AppEnv>()
  .get("/", (c) => identityPage(c, c.req.query("notice") ? { notice: c.req.query("notice") as string } : {}))
  /** A person's two profiles per account, side by side. */
  .get("/person", async (c) => {
    const person = field(c.req.query("id"));
    const t = c.get("i18n").t;
    const found = person ? await c.get("services").identity.profiles(person) : null;
    const page = found?.ok ? (
      <PersonProfilesPage view={found.value} />
    ) : (
      <PersonProfilesPage error={t("profiles.notFound", { person })} />
    );
    return render(c, "/admin/identity", t("identity.profiles"), page, found?.ok ? 200 : 404);
  })
  .post("/link", async (c) => {
    const form = await c.req.parseBody();
    const typed = { account: field(form.account), person: field(form.person) };
    if (!typed.account || !typed.person)
      return identityPage(c, { error: c.get("i18n").t("identity.linkRequired"), typed });
    const linked = await c.get("services").identity.link(typed.account, typed.person);
    if (!linked.ok) return identityPage(c, { error: said(linked.error), typed });
    // What the link does not open: a person's private-chat items stay in their private chats.
    const t = c.get("i18n").t;
    const notice = `${t("identity.linked", { account: linked.value.account, person: linked.value.personId })}${t("identity.privateByOrigin")}`;
    return c.redirect(`/admin/identity?notice=${encodeURIComponent(notice)}`, 303);
  })
  .post("/unlink", async (c) => {
    const form = await c.req.parseBody();
    const unlinked = await c.get("services").identity.unlink(field(form.account));
    if (!unlinked.ok) return identityPage(c, { error: said(unlinked.error) });
    const notice = c.get("i18n").t("identity.unlinked", { account: unlinked.value.account });
    return c.redirect(`/admin/identity?notice=${encodeURIComponent(notice)}`, 303);
  })
  /** Puts an account on the do-not-record list; "forget" also deletes what was kept of it. */
  .post("/leave-out", async (c) => {
    const form = await c.req.parseBody();
    const done = await c
      .get("services")
      .privacy.add(field(form.account), { forget: field(form.forget) === "1" });
    if (!done.ok) return identityPage(c, { error: said(done.error) });
    return c.redirect(
      `/admin/identity?notice=${encodeURIComponent(leaveOutNotice(c.get("i18n").t, done.value))}#leave-out`,
      303,
    );
  })
  .post("/leave-out/remove", async (c) => {
    const form = await c.req.parseBody();
    const done = await c.get("services").privacy.remove(field(form.account));
    if (!done.ok) return identityPage(c, { error: said(done.error) });
    const notice = c
      .get("i18n")
      .t(done.value.changed ? "leaveOut.removed" : "leaveOut.notThere", { account: done.value.account });
    return c.redirect(`/admin/identity?notice=${encodeURIComponent(notice)}#leave-out`, 303);
  })
  /** Forget a person, step one: what would be removed, counted; nothing is removed. */
  .get("/forget", async (c) => {
    const person = field(c.req.query("person"));
    if (!person) return identityPage(c, { error: c.get("i18n").t("forgetPerson.required") });
    const answer = await run(c, { op: "forget-person-preview", person });
    if (!answer.ok) return identityPage(c, { error: answer.text });
    return identityPage(c, { forget: { person, preview: answer.data.preview as PendingForget["preview"] } });
  })
  /** Step two: removes it when the person id is typed again; the notice says what went. */
  .post("/forget", async (c) => {
    const form = await c.req.parseBody();
    const person = field(form.person);
    const confirm = field(form.confirm);
    if (!person) return identityPage(c, { error: c.get("i18n").t("forgetPerson.required") });
    const answer = await run(
      c,
      { op: "forget-person", person, yes: confirm === person },
      { person, confirm },
    );
    if (answer.ok) return c.redirect(`/admin/identity?notice=${encodeURIComponent(answer.text)}`, 303);
    if (answer.error.kind === "invalid" && answer.error.field === "yes") {
      // Not confirmed: the confirm step again, with the counts as they are now.
      const again = await run(c, { op: "forget-person-preview", person });
      if (again.ok)
        return identityPage(c, {
          error: c.get("i18n").t("forgetPerson.notConfirmed", { person }),
          forget: { person, preview: again.data.preview as PendingForget["preview"] },
        });
    }
    return identityPage(c, { error: answer.text });
  });
