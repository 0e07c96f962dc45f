/**
 * Settings: the grouped form (settings-form.ts), and under "高级" the stored layer editable as
 * JSON with compare-and-set, and the effective settings.
 */
import { CSRF_FIELD } from "../auth/csrf";
import { useT } from "./i18n/i18n";
import {
  type FieldErrors,
  fieldHelp,
  fieldKind,
  fieldLabel,
  groupTitle,
  SETTINGS_GROUPS,
  unitLabel,
} from "./settings-form";

type FieldProps = { path: string; unit?: string; long?: boolean; value: string; error?: string | undefined };

function RangeLine(props: { path: string; unit?: string }) {
  const t = useT();
  const kind = fieldKind(props.path);
  const unit = props.unit ? ` ${props.unit}` : "";
  if (kind.kind === "number")
    return (
      <span class="muted">
        {t(kind.nullable ? "settings.rangeOrEmpty" : "settings.range", {
          min: kind.min,
          max: kind.max,
          unit,
        })}
      </span>
    );
  if (kind.kind === "text")
    return <span class="muted">{t("settings.length", { min: kind.min, max: kind.max })}</span>;
  return null;
}

function Field(props: FieldProps) {
  const t = useT();
  const kind = fieldKind(props.path);
  const id = `field-${props.path.replaceAll(".", "-")}`;
  const described = `${id}-help${props.error ? ` ${id}-error` : ""}`;
  const common = {
    id,
    name: props.path,
    "aria-describedby": described,
    "aria-invalid": props.error ? "true" : undefined,
  };
  let input = null;
  if (kind.kind === "boolean")
    input = (
      <select {...common}>
        <option value="true" selected={props.value === "true"}>
          {t("common.on")}
        </option>
        <option value="false" selected={props.value !== "true"}>
          {t("common.off")}
        </option>
      </select>
    );
  else if (kind.kind === "choice")
    input = (
      <select {...common}>
        {kind.options.map((o) => (
          <option value={o} selected={props.value === o}>
            {o}
          </option>
        ))}
      </select>
    );
  else if (props.long)
    input = (
      <textarea {...common} class="short">
        {props.value}
      </textarea>
    );
  else
    input = (
      <input
        {...common}
        type="text"
        inputmode={kind.kind === "number" ? "decimal" : undefined}
        value={props.value}
      />
    );
  return (
    <div class={props.error ? "field invalid" : "field"}>
      <label for={id}>
        <b>{t(fieldLabel(props.path))}</b> <code>{props.path}</code>
      </label>
      {input}
      <RangeLine path={props.path} {...(props.unit ? { unit: props.unit } : {})} />
      <small id={`${id}-help`} class="muted">
        {t(fieldHelp(props.path))}
      </small>
      {props.error && (
        <p class="field-error" role="alert" id={`${id}-error`}>
          {props.error}
        </p>
      )}
    </div>
  );
}

export function SettingsForm(props: {
  values: Readonly<Record<string, string>>;
  errors: FieldErrors;
  revision: string;
  csrf: string | null;
}) {
  const t = useT();
  const count = Object.keys(props.errors).length;
  return (
    <form method="post" action="/admin/settings" id="settings-form" class="settings-form">
      {props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />}
      <input type="hidden" name="revision" value={props.revision} />
      <input type="hidden" name="form" value="fields" />
      {count > 0 && (
        <p class="error" role="alert" id="settings-form-error">
          {t("settings.formInvalid", { count })}
        </p>
      )}
      {SETTINGS_GROUPS.map((group) => (
        <fieldset>
          <legend>{t(groupTitle(group.key))}</legend>
          {group.fields.map((f) => (
            <Field
              path={f.path}
              {...(f.unit ? { unit: t(unitLabel(f.unit)) } : {})}
              {...(f.long ? { long: true } : {})}
              value={props.values[f.path] ?? ""}
              error={props.errors[f.path]}
            />
          ))}
        </fieldset>
      ))}
      <p>
        <button type="submit">{t("common.save")}</button>
      </p>
    </form>
  );
}

export function SettingsPage(props: {
  effective: unknown;
  storedText: string;
  /** The stored layer's revision as read: the save is refused if it changed meanwhile. */
  revision: string;
  csrf: string | null;
  values: Readonly<Record<string, string>>;
  fieldErrors?: FieldErrors;
  /** An error of the JSON editor: it opens the "高级" section. */
  error?: { field: string; reason: string };
  notice?: string;
}) {
  const t = useT();
  return (
    <>
      <h1>{t("nav.settings")}</h1>
      {props.notice && <p class="notice">{props.notice}</p>}
      <p class="muted">{t("settings.intro")}</p>
      <SettingsForm
        values={props.values}
        errors={props.fieldErrors ?? {}}
        revision={props.revision}
        csrf={props.csrf}
      />
      <details id="advanced" open={props.error !== undefined}>
        <summary>{t("settings.advanced")}</summary>
        <h2>{t("settings.stored")}</h2>
        <p class="muted">{t("settings.storedHelp")}</p>
        {props.error && (
          <p class="error" role="alert" id="settings-error">
            <b>{props.error.field}</b> {props.error.reason}
          </p>
        )}
        <form method="post" action="/admin/settings" id="settings-json">
          {props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />}
          <input type="hidden" name="revision" value={props.revision} />
          <textarea name="stored" spellcheck={false}>
            {props.storedText}
          </textarea>
          <p>
            <button type="submit">{t("settings.saveJson")}</button>
          </p>
        </form>
        <h2>{t("settings.effective")}</h2>
        <pre class="card scroll">{JSON.stringify(props.effective, null, 2)}</pre>
      </details>
    </>
  );
}
