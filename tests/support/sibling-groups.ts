// Two groups of one chat domain, so that each may read the other's unmarked messages and public
// items: what the marked-message invariants start from. Dreaming is off; a test runs it itself.
import { storeIdentity } from "./identity-settings";
import { registerChat } from "./sessions";

export async function siblingGroups(domain: string, a: string, b: string): Promise<void> {
  await storeIdentity(
    { people: [], admins: [], chatDomains: { [domain]: [a, b] } },
    { memory: { dreaming: { enabled: false } } },
  );
  await registerChat(a, Date.now(), "登山群");
  await registerChat(b, Date.now(), "爬山群");
}
