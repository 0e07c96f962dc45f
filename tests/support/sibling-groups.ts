// Groups of one chat domain, so that each may read the other's unmarked messages and public
// items: what the marked-message invariants start from. Dreaming is off; a test runs it itself.
import { storeIdentity } from "./identity-settings";
import { registerChat } from "./sessions";

export async function siblingGroups(domain: string, a: string, b: string, ...more: string[]): Promise<void> {
  await storeIdentity(
    { people: [], admins: [], chatDomains: { [domain]: [a, b, ...more] } },
    { memory: { dreaming: { enabled: false } } },
  );
  await registerChat(a, Date.now(), "登山群");
  await registerChat(b, Date.now(), "爬山群");
  for (const [i, chat] of more.entries()) await registerChat(chat, Date.now(), `徒步群${i + 1}`);
}
