/**
 * Identity: people (declared in settings and stored), account links, observations, admins,
 * chat domains, linking and unlinking accounts, and who can read what in each shared chat.
 */

import type { IdentityService } from "../../composition/request/identity-service";
import type { ChatReadReport } from "../../domain/agent/chat-readers";
import { CSRF_FIELD } from "../auth/csrf";
import { DataTable } from "./data-table";
import { ForgetPersonPanel, forgetPersonHref, type PendingForget } from "./forget-person-panel";
import { formatTime } from "./format";
import { NoRisk, RiskMarker, ScopeRead } from "./risk-marker";

type Overview = Awaited<ReturnType<IdentityService["overview"]>>;

function ReadersTable(props: { reports: readonly ChatReadReport[] }) {
  return (
    <DataTable
      headers={["Chat", "Sender", "Reads", "Private readable"]}
      empty="No shared chats yet."
      rows={props.reports.flatMap((report) =>
        report.readers.map((r, i) => (
          <tr>
            <td>{i === 0 ? report.chat : ""}</td>
            <td>{r.reader}</td>
            <td>
              {r.scopes.map((s) => (
                <ScopeRead scope={s.scope} sensitivities={s.sensitivities} risk={s.risk} />
              ))}
            </td>
            <td>
              {r.scopes.some((s) => s.risk) ? (
                <RiskMarker
                  label={r.scopes
                    .filter((s) => s.risk)
                    .map((s) => s.scope)
                    .join(", ")}
                />
              ) : (
                <NoRisk />
              )}
            </td>
          </tr>
        )),
      )}
    />
  );
}

export function IdentityPage(props: {
  overview: Overview;
  reports: readonly ChatReadReport[];
  csrf: string | null;
  notice?: string;
  error?: string;
  typed?: { account: string; person: string };
  forget?: PendingForget;
}) {
  const o = props.overview;
  const csrf = props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />;
  const risky = props.reports.filter((r) => r.risks.length > 0).length;
  return (
    <>
      <h1>Identity</h1>
      {props.notice && <p class="notice">{props.notice}</p>}
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      <p>
        Identity is <b>{o.enabled ? "on" : "off"}</b>
        {o.enabled ? "." : ": every sender is just their account, and privileged actions are refused."}
      </p>

      <h2 id="readers">Who can read what</h2>
      <p class="muted">
        The memory scopes a turn in each shared chat reads, per sender, with the sensitivity levels it may see
        — computed by the turn's own scope rules.{" "}
        {risky === 0 ? "No chat can read anyone's private memory." : ""}
      </p>
      <div id="who-can-read">
        <ReadersTable reports={props.reports} />
      </div>

      <h2>Declared people</h2>
      <DataTable
        headers={["Person", "Name", "Accounts", "Admin", ""]}
        empty="No people declared in settings (identity.people)."
        rows={o.declared.map((p) => (
          <tr>
            <td>{p.id}</td>
            <td>{p.displayName}</td>
            <td>{p.accounts.join(", ")}</td>
            <td>{o.admins.includes(`person:${p.id}`) ? "yes" : ""}</td>
            <td>
              <a href={forgetPersonHref(p.id)}>Forget…</a>
            </td>
          </tr>
        ))}
      />

      <h2>Stored people</h2>
      <DataTable
        headers={["Person", "Name", "Origin", "Accounts", "Created", ""]}
        empty="No people created by links or union ids."
        rows={o.people.map((p) => (
          <tr>
            <td>{p.personId}</td>
            <td>{p.displayName ?? "—"}</td>
            <td>{p.origin}</td>
            <td>{p.accounts}</td>
            <td>{formatTime(p.createdAt)}</td>
            <td>
              <a href={forgetPersonHref(p.personId)}>Forget…</a>
            </td>
          </tr>
        ))}
      />

      <ForgetPersonPanel csrf={props.csrf} {...(props.forget ? { pending: props.forget } : {})} />

      <h2>Account links</h2>
      <form class="filters" method="post" action="/admin/identity/link">
        {csrf}
        <label>
          Account
          <input name="account" value={props.typed?.account ?? ""} placeholder="qq:user:…" required />
        </label>
        <label>
          Person
          <input name="person" value={props.typed?.person ?? ""} placeholder="person id" required />
        </label>
        <button type="submit">Link</button>
      </form>
      <DataTable
        headers={["Account", "Person", "Source", "Union", "By", "When", ""]}
        empty="No account links."
        rows={o.links.map((l) => (
          <tr>
            <td>{l.accountKey}</td>
            <td>{l.personId ?? <span class="muted">detached</span>}</td>
            <td>{l.source}</td>
            <td>{l.unionKey ?? "—"}</td>
            <td>{l.linkedBy ?? "—"}</td>
            <td>{formatTime(l.linkedAt)}</td>
            <td>
              {l.personId && (
                <form method="post" action="/admin/identity/unlink" class="inline">
                  {csrf}
                  <input type="hidden" name="account" value={l.accountKey} />
                  <button type="submit" class="quiet">
                    Unlink
                  </button>
                </form>
              )}
            </td>
          </tr>
        ))}
      />

      <h2>Admins</h2>
      <p>
        {o.admins.length === 0 ? (
          <span class="muted">No admins (identity.admins).</span>
        ) : (
          o.admins.join(", ")
        )}
      </p>

      <h2>Chat domains</h2>
      <DataTable
        headers={["Domain", "Chats"]}
        empty="No chat domains: every chat is a domain of its own."
        rows={Object.entries(o.chatDomains).map(([name, chats]) => (
          <tr>
            <td>{name}</td>
            <td>{chats.join(", ")}</td>
          </tr>
        ))}
      />

      <h2>Recent observations</h2>
      <DataTable
        headers={["Account", "Chat", "Name", "Role", "Union", "First seen", "Last seen"]}
        empty="No accounts observed yet."
        rows={o.observations.map((x) => (
          <tr>
            <td>{x.accountKey}</td>
            <td>{x.chatKey}</td>
            <td>{x.displayName ?? "—"}</td>
            <td>{x.role ?? "—"}</td>
            <td>{x.unionKey ?? "—"}</td>
            <td>{formatTime(x.firstSeen)}</td>
            <td>{formatTime(x.lastSeen)}</td>
          </tr>
        ))}
      />
    </>
  );
}
