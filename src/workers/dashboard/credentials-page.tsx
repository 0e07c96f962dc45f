/**
 * The Credentials page: what today's detectors read as a credential in memory, summaries and
 * dreaming candidates (ticked and erased), and in the message logs (checked, then masked),
 * kept before a detector read its wording. Only masked text is shown, so finding a value says
 * it to no one (docs/decisions/0980-memory-kept-before-a-detector-read-it.md,
 * docs/decisions/0990-logs-kept-before-a-detector-read-them.md).
 */
import type { SweepStepReport } from "../../composition/request/credential-sweep-service";
import type { HeldCredential } from "../../domain/memory/held-credentials";
import { CSRF_FIELD } from "../auth/csrf";
import { DataTable } from "./data-table";
import { useT } from "./i18n/i18n";

/** The memory read for this page: from an offset, up to the page's budget. */
export type MemoryScan = {
  readonly from: number;
  readonly scanned: number;
  readonly total: number;
  readonly nextOffset: number | null;
  readonly held: readonly HeldCredential[];
};

/** The counts of a log sweep so far, summed over its steps (and the 继续 forms before). */
export type LogTotals = {
  readonly logRead: number;
  readonly logHolding: number;
  readonly other: number;
  readonly d1Read: number;
  readonly d1Holding: number;
};

/** Where a log sweep run from this page stopped. */
export type LogRun = {
  readonly mask: boolean;
  readonly totals: LogTotals;
  readonly last: Pick<SweepStepReport, "done" | "cursor" | "progress" | "unswept">;
};

function Csrf(props: { csrf: string | null }) {
  return props.csrf ? <input type="hidden" name={CSRF_FIELD} value={props.csrf} /> : null;
}

function HeldRows(props: { scan: MemoryScan }) {
  const t = useT();
  const kindOf = (k: HeldCredential["kind"]) =>
    k === "summary" ? t("credentials.kind.summary") : k === "candidate" ? t("credentials.kind.candidate") : k;
  return (
    <DataTable
      headers={[
        t("credentials.col.erase"),
        t("credentials.col.item"),
        t("credentials.col.kind"),
        t("credentials.col.scope"),
        t("credentials.col.status"),
        t("credentials.col.text"),
      ]}
      empty={t("credentials.clean")}
      rows={props.scan.held.map((h) => (
        <tr>
          <td>
            <input
              type="checkbox"
              name="id"
              value={h.nodeId}
              checked
              aria-label={t("credentials.eraseOf", { id: h.nodeId })}
            />
          </td>
          <td>
            <code>{h.nodeId}</code>
          </td>
          <td>{kindOf(h.kind)}</td>
          <td>
            <code>{h.scope}</code>
          </td>
          <td>{h.status}</td>
          <td>{h.masked ?? <span class="muted">{t("credentials.unshown")}</span>}</td>
        </tr>
      ))}
    />
  );
}

function MemorySection(props: { scan: MemoryScan; csrf: string | null }) {
  const t = useT();
  const { scan } = props;
  return (
    <section id="memory-held">
      <h2>{t("credentials.memory")}</h2>
      <p class="muted">
        {scan.total === 0
          ? t("credentials.nothingToRead")
          : scan.scanned === 0
            ? t("credentials.pastEnd", { from: scan.from + 1, total: scan.total })
            : t("credentials.scanned", {
                first: Math.min(scan.from + 1, scan.total),
                last: scan.from + scan.scanned,
                total: scan.total,
                n: scan.held.length,
              })}
      </p>
      <form method="post" action="/admin/credentials/erase">
        <Csrf csrf={props.csrf} />
        <input type="hidden" name="from" value={String(scan.from)} />
        <HeldRows scan={scan} />
        {scan.held.length > 0 && (
          <p>
            <label class="inline">
              <input type="checkbox" name="sure" value="yes" /> {t("credentials.sureErase")}
            </label>{" "}
            <button type="submit" class="danger">
              {t("credentials.erase")}
            </button>
          </p>
        )}
      </form>
      {scan.nextOffset !== null && (
        <p>
          <a href={`/admin/credentials?from=${scan.nextOffset}#memory-held`}>
            {t("credentials.more", { from: scan.nextOffset + 1 })}
          </a>
        </p>
      )}
    </section>
  );
}

/** What a run read and found, whether it is done, and a 继续 form where it stopped. */
function LogReport(props: { run: LogRun; csrf: string | null }) {
  const t = useT();
  const { totals, last, mask } = props.run;
  const held = totals.logHolding + totals.other + totals.d1Holding;
  const ending = !last.done
    ? t("credentials.logPartial", { before: last.progress.chatsBefore, chats: last.progress.chats })
    : mask
      ? t("credentials.logMasked", { n: held })
      : held === 0
        ? t("credentials.logClean")
        : t("credentials.logFound", { n: held });
  return (
    <div class="notice" id="log-report">
      <p>
        {t("credentials.logRead", { read: totals.logRead, holding: totals.logHolding, other: totals.other })}
      </p>
      <p>{t("credentials.d1Read", { read: totals.d1Read, holding: totals.d1Holding })}</p>
      <p>{ending}</p>
      {last.unswept.length > 0 && (
        <>
          <p class="error">{t("credentials.unswept", { n: last.unswept.length })}</p>
          <ul>
            {last.unswept.map((u) => (
              <li>
                <code>{u.chat}</code>: {u.error}
              </li>
            ))}
          </ul>
        </>
      )}
      {!last.done && last.cursor !== null && (
        <form method="post" action="/admin/credentials/log#log-held">
          <Csrf csrf={props.csrf} />
          <input type="hidden" name="mode" value={mask ? "mask" : "check"} />
          {mask && <input type="hidden" name="sure" value="yes" />}
          <input type="hidden" name="cursor" value={last.cursor} />
          {Object.entries(totals).map(([name, n]) => (
            <input type="hidden" name={name} value={String(n)} />
          ))}
          <button type="submit">{t("credentials.continue")}</button>
        </form>
      )}
    </div>
  );
}

function LogSection(props: { run: LogRun | null; csrf: string | null }) {
  const t = useT();
  return (
    <section id="log-held">
      <h2>{t("credentials.log")}</h2>
      <p class="muted">{t("credentials.logIntro")}</p>
      {props.run && <LogReport run={props.run} csrf={props.csrf} />}
      <form method="post" action="/admin/credentials/log#log-held">
        <Csrf csrf={props.csrf} />
        <button type="submit" name="mode" value="check">
          {t("credentials.check")}
        </button>{" "}
        <label class="inline">
          <input type="checkbox" name="sure" value="yes" /> {t("credentials.sureMask")}
        </label>{" "}
        <button type="submit" name="mode" value="mask" class="danger">
          {t("credentials.mask")}
        </button>
      </form>
    </section>
  );
}

export function CredentialsPage(props: {
  scan: MemoryScan | null;
  run: LogRun | null;
  csrf: string | null;
  notice?: string | undefined;
  error?: string | undefined;
}) {
  const t = useT();
  return (
    <>
      <h1>{t("nav.credentials")}</h1>
      {props.notice && <p class="notice">{props.notice}</p>}
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      <p class="muted">{t("credentials.intro")}</p>
      {props.scan && <MemorySection scan={props.scan} csrf={props.csrf} />}
      <LogSection run={props.run} csrf={props.csrf} />
    </>
  );
}
