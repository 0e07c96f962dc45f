// Group exchanges written blind (decision 0820): someone asks for a password and another member
// gives it, near misses of the same shape, and ordinary exchanges. Each row is
// `{ messages: [{ sender, text }], label, secret?, form? }`; a positive counts when its secret is
// in no message as the chat object stores them, a near miss or an ordinary exchange when any
// message changed.
import { existsSync } from "node:fs";
import path from "node:path";
import { root } from "../lib/dev-vars.mjs";
import { readJsonl } from "./domain-bundle.mjs";

const SETS = [
  ["held back, never tuned on", "credentials-held-back-asked.jsonl"],
  ["read while its rule was written", "credentials-read-asked.jsonl"],
];

export function conversationSets(detectors) {
  for (const [title, name] of SETS) {
    const file = path.join(root, "tests/fixtures/privacy", name);
    if (!existsSync(file)) continue;
    const rows = readJsonl(file);
    const positives = rows.filter((r) => r.label === "credential");
    const near = rows.filter((r) => r.label === "none" && r.form === "near");
    const ordinary = rows.filter((r) => r.label === "none" && r.form === "ordinary");
    console.log(`\n${title}, group exchanges (${path.relative(root, file)}):`);
    for (const [label, d] of detectors) {
      const stored = (r) => d.conversation(r.messages).join("\n");
      const changed = (r) => stored(r) !== r.messages.map((m) => m.text).join("\n");
      const gone = positives.filter((r) => !stored(r).includes(r.secret)).length;
      console.log(
        `  ${label.padEnd(20)} secret gone ${gone}/${positives.length}, near misses changed ${near.filter(changed).length}/${near.length}, ordinary changed ${ordinary.filter(changed).length}/${ordinary.length}`,
      );
    }
  }
}
