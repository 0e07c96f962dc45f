/**
 * The Settings page at /admin/settings: the grouped form and the JSON editor, both saved
 * through the one settings write path (validated whole, compare-and-set on the revision the
 * page was read at). A refused save answers with the page again, what was typed kept.
 */
import { type Context, Hono } from "hono";
import { parseBoundedJson } from "../../domain/kernel/bounded-json";
import { explainIssue, type ValidationIssue } from "../../domain/kernel/validation-issue";
import type { AppEnv } from "../app-env";
import type { Translate } from "./i18n/i18n";
import { pageContext } from "./page-context";
import { render } from "./page-render";
import { documentFromForm, type FieldErrors, formFields, formValues } from "./settings-form";
import { SettingsPage } from "./settings-page";

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

type SettingsPageState = {
  /** The JSON editor's text as typed (kept after an error). */
  typed?: string;
  error?: { field: string; reason: string };
  /** The form's values as typed, and the error beside each field. */
  form?: { values: Record<string, string>; errors: FieldErrors };
  notice?: string;
  status?: 200 | 400 | 409;
};

async function settingsPage(c: Context<AppEnv>, state: SettingsPageState = {}) {
  const view = await c.get("services").settings.read();
  const storedText = state.typed ?? JSON.stringify(view.stored ?? {}, null, 2);
  return render(
    c,
    "/admin/settings",
    c.get("i18n").t("nav.settings"),
    <SettingsPage
      effective={view.effective}
      storedText={storedText}
      revision={view.revision}
      csrf={(await pageContext(c)).csrf}
      values={state.form?.values ?? formValues(view.effective)}
      {...(state.form ? { fieldErrors: state.form.errors } : {})}
      {...(state.error ? { error: state.error } : {})}
      {...(state.notice ? { notice: state.notice } : {})}
    />,
    state.status ?? 200,
  );
}

/** A refused settings write as the page says it: the schema's issue in the page's language (zod's locale), else the write path's own words. */
function refusal(c: Context<AppEnv>, e: { field: string; reason: string; issue?: ValidationIssue }) {
  return { field: e.field, reason: e.issue ? explainIssue(e.issue, c.get("i18n").lang) : e.reason };
}

/** The grouped form: each field checked here, the whole validated by the one write path. */
async function saveSettingsForm(c: Context<AppEnv>, form: Record<string, unknown>, revision?: string) {
  const t = c.get("i18n").t;
  const values = Object.fromEntries(formFields().map((path) => [path, text(form[path] ?? "")]));
  if (typeof form["turn.persona"] === "string") values["turn.persona"] = form["turn.persona"];
  const view = await c.get("services").settings.read();
  const built = documentFromForm(values, view.stored, view.effective, t);
  if ("errors" in built) return settingsPage(c, { form: { values, errors: built.errors }, status: 400 });
  const saved = await c.get("services").settings.replace(built.document, revision);
  if (saved.ok) return settingsPage(c, { notice: t("common.saved") });
  if (saved.error.kind === "conflict")
    return settingsPage(c, { form: { values, errors: {} }, error: staleError(t), status: 409 });
  const { field, reason } = refusal(c, saved.error);
  // A field the form shows gets the error beside it; any other is the document's.
  if (formFields().includes(field))
    return settingsPage(c, { form: { values, errors: { [field]: reason } }, status: 400 });
  return settingsPage(c, { form: { values, errors: {} }, error: { field, reason }, status: 400 });
}

const staleError = (t: Translate) => ({ field: "revision", reason: t("settings.stale") });

export const settingsPageRoutes = new Hono<AppEnv>()
  .get("/", (c) => settingsPage(c))
  .post("/", async (c) => {
    const form = await c.req.parseBody();
    const t = c.get("i18n").t;
    // The form always carries the revision it was read at; a post without one saves against
    // whatever this request reads, as the API does without If-Match.
    const revision = typeof form.revision === "string" ? form.revision : undefined;
    if (form.form === "fields") return saveSettingsForm(c, form, revision);
    const typed = typeof form.stored === "string" ? form.stored : "";
    const parsed = parseBoundedJson(typed);
    if (!parsed.ok)
      return settingsPage(c, {
        typed,
        error: {
          field: t("settings.document"),
          reason: parsed.tooDeep ? parsed.reason : t("settings.notJson", { syntax: parsed.syntax }),
        },
        status: 400,
      });
    const saved = await c.get("services").settings.replace(parsed.value, revision);
    if (saved.ok) return settingsPage(c, { notice: t("common.saved") });
    if (saved.error.kind === "conflict") return settingsPage(c, { typed, error: staleError(t), status: 409 });
    return settingsPage(c, { typed, error: refusal(c, saved.error), status: 400 });
  });
