/**
 * Sessions: every chat's session id, alias, title and cluster; link (with a confirmation step
 * when a group would read someone's private chat), unlink, rename, export and forget. A risk
 * marker stands wherever a group reads a private chat through its cluster.
 */
import type { PrivateExposure } from "../../domain/sessions/cluster-exposure";
import type { SessionInfo } from "../../domain/sessions/session-registry";
import { CSRF_FIELD } from "../auth/csrf";
import { DataTable } from "./data-table";
import { formatTime } from "./format";
import { useT } from "./i18n/i18n";

export type PendingLink = { a: string; b: string; exposures: readonly PrivateExposure[] };

const name = (s: SessionInfo) => s.alias ?? s.title ?? s.chatKey;

function Csrf(props: { csrf: string | null }) {
  return props.csrf ? <input type="hidden" name={CSRF_FIELD} value={props.csrf} /> : null;
}

function Risk(props: { session: SessionInfo; exposures: readonly PrivateExposure[] }) {
  const reads = props.exposures.filter((e) => e.group === props.session.chatKey);
  const readBy = props.exposures.filter((e) => e.privateChat === props.session.chatKey);
  const t = useT();
  if (reads.length === 0 && readBy.length === 0) return null;
  return (
    <div class="risk" data-risk="private">
      {reads.map((e) => (
        <span class="tag secret_like">{t("sessions.readsPrivate", { label: e.label })}</span>
      ))}
      {readBy.map((e) => (
        <span class="tag secret_like">{t("sessions.readByGroup", { group: e.group })}</span>
      ))}
    </div>
  );
}

function Row(props: {
  session: SessionInfo;
  members: readonly SessionInfo[];
  exposures: readonly PrivateExposure[];
  csrf: string | null;
}) {
  const s = props.session;
  const base = `/admin/sessions/${encodeURIComponent(s.sessionId)}`;
  const others = props.members.filter((m) => m.chatKey !== s.chatKey);
  const t = useT();
  return (
    <tr data-session={s.sessionId}>
      <td>
        <strong>{name(s)}</strong>
        <div class="muted">
          <code>{s.sessionId}</code> {name(s) === s.chatKey ? "" : s.chatKey}
        </div>
        {s.title && s.alias && <div class="muted">{t("sessions.titleLine", { title: s.title })}</div>}
      </td>
      <td>{s.targetType}</td>
      <td>
        {others.length === 0 ? (
          <span class="muted">{t("sessions.own")}</span>
        ) : (
          <>
            <code>{s.clusterId}</code>
            <div class="muted">{t("sessions.with", { names: others.map(name).join(", ") })}</div>
          </>
        )}
        <Risk session={s} exposures={props.exposures} />
      </td>
      <td>
        {t(s.storeEnabled ? "sessions.stored" : "sessions.notStored")}
        <div class="muted">
          {s.keepDays === null
            ? t("sessions.defaultRetention")
            : t("sessions.keepDays", { days: s.keepDays })}
        </div>
        <div class="muted">{s.lastSeen ? formatTime(s.lastSeen) : ""}</div>
      </td>
      <td>
        <form method="post" action={`${base}/rename`} class="inline">
          <Csrf csrf={props.csrf} />
          <input
            name="alias"
            value={s.alias ?? ""}
            placeholder={t("sessions.alias")}
            size={10}
            aria-label={t("sessions.alias")}
          />
          <button type="submit" class="quiet">
            {t("sessions.rename")}
          </button>
        </form>{" "}
        {others.length > 0 && (
          <form method="post" action={`${base}/unlink`} class="inline">
            <Csrf csrf={props.csrf} />
            <button type="submit" class="quiet">
              {t("sessions.unlink")}
            </button>
          </form>
        )}{" "}
        <a href={`${base}/export`} download>
          {t("sessions.export")}
        </a>{" "}
        <a href={`${base}/export?log=true`} download>
          {t("sessions.withLog")}
        </a>{" "}
        <form method="post" action={`${base}/forget`} class="inline">
          <Csrf csrf={props.csrf} />
          <input
            name="confirm"
            placeholder={t("forgetPerson.typeToConfirm", { id: s.sessionId })}
            size={14}
            aria-label={t("sessions.confirmForget")}
            required
          />
          <button type="submit" class="danger">
            {t("sessions.forget")}
          </button>
        </form>
      </td>
    </tr>
  );
}

export function SessionsPage(props: {
  sessions: readonly SessionInfo[];
  exposures: readonly PrivateExposure[];
  csrf: string | null;
  pending?: PendingLink;
  notice?: string;
  error?: string;
}) {
  const clusters = new Map<string, SessionInfo[]>();
  for (const s of props.sessions) clusters.set(s.clusterId, [...(clusters.get(s.clusterId) ?? []), s]);
  const option = (s: SessionInfo) => <option value={s.sessionId}>{`${name(s)} (${s.targetType})`}</option>;
  const t = useT();
  return (
    <>
      <h1>{t("nav.sessions")}</h1>
      {props.notice && <p class="notice">{props.notice}</p>}
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      {props.pending && (
        <div class="error" role="alert" id="confirm-link">
          <p>
            <strong>{t("sessions.linkWarn")}</strong> {t("sessions.linkWarnMore")}
          </p>
          <ul>
            {props.pending.exposures.map((e) => (
              <li>
                {t("sessions.wouldRead", {
                  group: e.group,
                  label: e.label,
                  account: e.account ?? e.privateChat,
                })}
              </li>
            ))}
          </ul>
          <form method="post" action="/admin/sessions/link" class="inline">
            <Csrf csrf={props.csrf} />
            <input type="hidden" name="a" value={props.pending.a} />
            <input type="hidden" name="b" value={props.pending.b} />
            <input type="hidden" name="confirm" value="yes" />
            <button type="submit" class="danger">
              {t("sessions.linkAnyway")}
            </button>
          </form>{" "}
          <a href="/admin/sessions">{t("common.cancel")}</a>
        </div>
      )}
      <form method="post" action="/admin/sessions/link" class="filters">
        <Csrf csrf={props.csrf} />
        <label>
          {t("sessions.clusterOf")}
          <select name="a">{props.sessions.map(option)}</select>
        </label>
        <label>
          {t("sessions.gets")}
          <select name="b">{props.sessions.map(option)}</select>
        </label>
        <button type="submit">{t("sessions.link")}</button>
      </form>
      <p class="muted">
        {t("sessions.summary", { sessions: props.sessions.length, clusters: clusters.size })}
      </p>
      <DataTable
        headers={[
          t("sessions.col.session"),
          t("sessions.col.type"),
          t("sessions.col.cluster"),
          t("sessions.col.storage"),
          t("sessions.col.actions"),
        ]}
        empty={t("sessions.none")}
        rows={props.sessions.map((s) => (
          <Row
            session={s}
            members={clusters.get(s.clusterId) ?? [s]}
            exposures={props.exposures}
            csrf={props.csrf}
          />
        ))}
      />
    </>
  );
}
