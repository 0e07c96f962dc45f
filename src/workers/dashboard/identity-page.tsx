/**
 * Identity: people (declared in settings and stored), account links, observations, admins,
 * chat domains, linking and unlinking accounts, who can read what in each shared chat, and the
 * people never recorded.
 * Each section is a component of its own; this page puts them in order.
 */

import type { ChatReadReport } from "../../domain/agent/chat-readers";
import { AccountLinksSection } from "./account-links-section";
import { ForgetPersonPanel, type PendingForget } from "./forget-person-panel";
import { useT } from "./i18n/i18n";
import { AdminsSection, ChatDomainsSection, ObservationsSection } from "./identity-domain-sections";
import {
  DeclaredPeopleSection,
  type IdentityOverview,
  StoredPeopleSection,
} from "./identity-people-sections";
import { IdentityReadersSection } from "./identity-readers-section";
import { LeaveOutPanel } from "./leave-out-panel";
import { PageNotices } from "./page-notices";

export function IdentityPage(props: {
  overview: IdentityOverview;
  reports: readonly ChatReadReport[];
  csrf: string | null;
  notice?: string;
  error?: string;
  typed?: { account: string; person: string };
  forget?: PendingForget;
  leftOut: { readonly accounts: readonly string[]; readonly fromConfig: readonly string[] };
}) {
  const t = useT();
  const o = props.overview;
  return (
    <>
      <h1>{t("nav.identity")}</h1>
      <PageNotices notice={props.notice} error={props.error} />
      <p>
        {t("identity.state")}
        <b>{t(o.enabled ? "identity.on" : "identity.off")}</b>
        {o.enabled ? "" : t("identity.offNote")}
      </p>

      <IdentityReadersSection reports={props.reports} />

      <DeclaredPeopleSection overview={o} />

      <StoredPeopleSection people={o.people} />

      <ForgetPersonPanel csrf={props.csrf} {...(props.forget ? { pending: props.forget } : {})} />

      <LeaveOutPanel
        csrf={props.csrf}
        accounts={props.leftOut.accounts}
        fromConfig={props.leftOut.fromConfig}
      />

      <AccountLinksSection links={o.links} csrf={props.csrf} typed={props.typed} />

      <AdminsSection admins={o.admins} />

      <ChatDomainsSection chatDomains={o.chatDomains} />

      <ObservationsSection observations={o.observations} />
    </>
  );
}
