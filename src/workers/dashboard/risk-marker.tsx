/**
 * The marks of who-can-read views: a scope with the sensitivity levels a chat reads of it,
 * and the risk marker shown wherever a shared chat can read someone's private memory. The
 * Identity page uses them; any page that shows scopes a chat reads should too.
 */
import { useT } from "./i18n/i18n";

export function ScopeRead(props: { scope: string; sensitivities: readonly string[]; risk: boolean }) {
  return (
    <span class={props.risk ? "scope-read risky" : "scope-read"}>
      <code>{props.scope}</code>{" "}
      {props.sensitivities.map((s) => (
        <span class={`tag ${s}`}>{s}</span>
      ))}
      {props.risk && <RiskMarker />}
    </span>
  );
}

export function RiskMarker(props: { label?: string }) {
  const t = useT();
  return (
    <span class="risk" role="img" aria-label={t("risk.aria")} title={t("risk.title")}>
      ⚠ {props.label ?? t("risk.label")}
    </span>
  );
}

export function NoRisk() {
  return <span class="no-risk">{useT()("common.none")}</span>;
}
