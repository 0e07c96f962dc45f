/** The follow list and the admin list: each entry with its remove button, and a form to add one. */
import type { Child } from "hono/jsx";
import { CSRF_FIELD } from "../auth/csrf";
import { useT } from "./i18n/i18n";
import { PageNotices } from "./page-notices";

type Notices = { notice?: string | undefined; error?: string | undefined };

function Csrf(props: { csrf: string | null }) {
  return props.csrf ? <input type="hidden" name={CSRF_FIELD} value={props.csrf} /> : null;
}

/** One POST button carrying one entry: the list pages' only way to change anything. */
function EntryButton(props: {
  action: string;
  field: string;
  value: string;
  csrf: string | null;
  children: Child;
}) {
  return (
    <form method="post" action={props.action} class="inline">
      <Csrf csrf={props.csrf} />
      <input type="hidden" name={props.field} value={props.value} />
      <button type="submit" class="quiet">
        {props.children}
      </button>
    </form>
  );
}

/** The add form: the typed value is kept after a refusal, the reason beside the field. */
function AddForm(props: {
  action: string;
  field: string;
  label: string;
  placeholder: string;
  typed: string;
  fieldError?: string | undefined;
  submit: string;
  csrf: string | null;
}) {
  const id = `add-${props.field}`;
  return (
    <form method="post" action={props.action} class="filters" id={`${id}-form`}>
      <Csrf csrf={props.csrf} />
      <label for={id}>
        {props.label}
        <input
          id={id}
          name={props.field}
          value={props.typed}
          placeholder={props.placeholder}
          required
          aria-invalid={props.fieldError ? "true" : undefined}
          aria-describedby={props.fieldError ? `${id}-error` : undefined}
        />
      </label>
      <button type="submit">{props.submit}</button>
      {props.fieldError && (
        <p class="field-error" role="alert" id={`${id}-error`}>
          {props.fieldError}
        </p>
      )}
    </form>
  );
}

export function FollowPage(
  props: Notices & {
    groups: readonly string[];
    /** Group chats the bot has seen that are not followed. */
    unfollowed: readonly { chatKey: string; title: string | null }[];
    typed: string;
    fieldError?: string | undefined;
    csrf: string | null;
  },
) {
  const t = useT();
  return (
    <>
      <h1>{t("nav.follow")}</h1>
      <p class="muted">{t("follow.intro")}</p>
      <PageNotices notice={props.notice} error={props.error} />
      <h2>{t("follow.current")}</h2>
      {props.groups.length === 0 ? (
        <p class="muted">{t("follow.none")}</p>
      ) : (
        <ul id="followed">
          {props.groups.map((g) => (
            <li>
              <code>{g === "*" ? t("follow.all") : g}</code>{" "}
              <EntryButton action="/admin/follow/remove" field="chat" value={g} csrf={props.csrf}>
                {t("follow.unfollow")}
              </EntryButton>
            </li>
          ))}
        </ul>
      )}
      <h2>{t("follow.add")}</h2>
      <AddForm
        action="/admin/follow/add"
        field="chat"
        label={t("follow.chatKey")}
        placeholder="qq:group:123456"
        typed={props.typed}
        fieldError={props.fieldError}
        submit={t("follow.follow")}
        csrf={props.csrf}
      />
      {props.unfollowed.length > 0 && (
        <>
          <h2>{t("follow.seen")}</h2>
          <ul id="seen-groups">
            {props.unfollowed.map((chat) => (
              <li>
                {chat.title ?? chat.chatKey} {chat.title && <code>{chat.chatKey}</code>}{" "}
                <EntryButton action="/admin/follow/add" field="chat" value={chat.chatKey} csrf={props.csrf}>
                  {t("follow.follow")}
                </EntryButton>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

export function AdminsPage(
  props: Notices & {
    admins: readonly string[];
    fromConfig: readonly string[];
    identityEnabled: boolean;
    typed: string;
    fieldError?: string | undefined;
    csrf: string | null;
  },
) {
  const t = useT();
  return (
    <>
      <h1>{t("nav.admins")}</h1>
      <p class="muted">{t(props.identityEnabled ? "admins.identityOn" : "admins.identityOff")}</p>
      <PageNotices notice={props.notice} error={props.error} />
      {props.admins.length === 0 ? (
        <p class="muted">{t("admins.none")}</p>
      ) : (
        <ul id="admins">
          {props.admins.map((a) => (
            <li>
              <code>{a}</code>{" "}
              {props.fromConfig.includes(a) ? (
                <span class="muted">{t("admins.fromConfig")}</span>
              ) : (
                <EntryButton action="/admin/admins/remove" field="account" value={a} csrf={props.csrf}>
                  {t("admins.remove")}
                </EntryButton>
              )}
            </li>
          ))}
        </ul>
      )}
      <h2>{t("admins.add")}</h2>
      <AddForm
        action="/admin/admins/add"
        field="account"
        label={t("admins.account")}
        placeholder="qq:user:123456"
        typed={props.typed}
        fieldError={props.fieldError}
        submit={t("admins.addButton")}
        csrf={props.csrf}
      />
    </>
  );
}
