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

export type PendingLink = { a: string; b: string; exposures: readonly PrivateExposure[] };

const name = (s: SessionInfo) => s.alias ?? s.title ?? s.chatKey;

function Csrf(props: { csrf: string | null }) {
  return props.csrf ? <input type="hidden" name={CSRF_FIELD} value={props.csrf} /> : null;
}

function Risk(props: { session: SessionInfo; exposures: readonly PrivateExposure[] }) {
  const reads = props.exposures.filter((e) => e.group === props.session.chatKey);
  const readBy = props.exposures.filter((e) => e.privateChat === props.session.chatKey);
  if (reads.length === 0 && readBy.length === 0) return null;
  return (
    <div class="risk" data-risk="private">
      {reads.map((e) => (
        <span class="tag secret_like">⚠ reads the private chat of {e.label}</span>
      ))}
      {readBy.map((e) => (
        <span class="tag secret_like">⚠ read by group {e.group}</span>
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
  return (
    <tr data-session={s.sessionId}>
      <td>
        <strong>{name(s)}</strong>
        <div class="muted">
          <code>{s.sessionId}</code> {name(s) === s.chatKey ? "" : s.chatKey}
        </div>
        {s.title && s.alias && <div class="muted">title: {s.title}</div>}
      </td>
      <td>{s.targetType}</td>
      <td>
        {others.length === 0 ? (
          <span class="muted">own</span>
        ) : (
          <>
            <code>{s.clusterId}</code>
            <div class="muted">with {others.map(name).join(", ")}</div>
          </>
        )}
        <Risk session={s} exposures={props.exposures} />
      </td>
      <td>
        {s.storeEnabled ? "stored" : "not stored"}
        <div class="muted">{s.keepDays === null ? "default retention" : `${s.keepDays} days`}</div>
        <div class="muted">{s.lastSeen ? formatTime(s.lastSeen) : ""}</div>
      </td>
      <td>
        <form method="post" action={`${base}/rename`} class="inline">
          <Csrf csrf={props.csrf} />
          <input name="alias" value={s.alias ?? ""} placeholder="alias" size={10} aria-label="alias" />
          <button type="submit" class="quiet">
            Rename
          </button>
        </form>{" "}
        {others.length > 0 && (
          <form method="post" action={`${base}/unlink`} class="inline">
            <Csrf csrf={props.csrf} />
            <button type="submit" class="quiet">
              Unlink
            </button>
          </form>
        )}{" "}
        <a href={`${base}/export`} download>
          Export
        </a>{" "}
        <a href={`${base}/export?log=true`} download>
          (with log)
        </a>{" "}
        <form method="post" action={`${base}/forget`} class="inline">
          <Csrf csrf={props.csrf} />
          <input
            name="confirm"
            placeholder={`type ${s.sessionId}`}
            size={14}
            aria-label="confirm forget"
            required
          />
          <button type="submit" class="danger">
            Forget
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
  return (
    <>
      <h1>Sessions</h1>
      {props.notice && <p class="notice">{props.notice}</p>}
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      {props.pending && (
        <div class="error" role="alert" id="confirm-link">
          <p>
            <strong>⚠ This link lets a group read someone's private chat.</strong> Its public items will be
            recalled in the group; private and secret items never are.
          </p>
          <ul>
            {props.pending.exposures.map((e) => (
              <li>
                {e.group} would read the memory of <strong>{e.label}</strong> ({e.account ?? e.privateChat})
              </li>
            ))}
          </ul>
          <form method="post" action="/admin/sessions/link" class="inline">
            <Csrf csrf={props.csrf} />
            <input type="hidden" name="a" value={props.pending.a} />
            <input type="hidden" name="b" value={props.pending.b} />
            <input type="hidden" name="confirm" value="yes" />
            <button type="submit" class="danger">
              Link anyway
            </button>
          </form>{" "}
          <a href="/admin/sessions">Cancel</a>
        </div>
      )}
      <form method="post" action="/admin/sessions/link" class="filters">
        <Csrf csrf={props.csrf} />
        <label>
          Cluster of
          <select name="a">{props.sessions.map(option)}</select>
        </label>
        <label>
          gets
          <select name="b">{props.sessions.map(option)}</select>
        </label>
        <button type="submit">Link</button>
      </form>
      <p class="muted">
        {props.sessions.length} sessions in {clusters.size} clusters. Linked chats read each other's memory;
        items keep their own scope, so unlinking hides them again at once.
      </p>
      <DataTable
        headers={["Session", "Type", "Cluster", "Storage", "Actions"]}
        empty="No sessions yet: chats appear here once they have been seen."
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
