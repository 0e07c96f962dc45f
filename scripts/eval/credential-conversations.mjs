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
  ["held back, never tuned on", "credentials-held-back-asked-4.jsonl"],
  ["read while its rule was written", "credentials-read-asked.jsonl"],
  // Held back until measured once each (decisions 0820, 0830), then read for the rules of 0830.
  ["read after it was measured", "credentials-read-asked-2.jsonl"],
  ["read after it was measured", "credentials-read-asked-3.jsonl"],
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

/**
 * The chat-wide cues on ordinary chat: each shared dataset's messages in their order, two
 * speakers taking turns, a message a second. Counts the messages the cues change beyond what
 * masking each message alone does: an ordinary question read as asking for a password, and the
 * next messages' numbers taken for its answer.
 */
export function ordinaryConversations(detectors, sets) {
  console.log("\nthe chat's cues on ordinary chat, read as conversations: messages changed per 10,000");
  for (const [name, texts] of sets) {
    const cells = detectors.map(([label, d]) => {
      let changed = 0;
      for (let at = 0; at < texts.length; at += 100) {
        const chunk = texts.slice(at, at + 100);
        const stored = d.conversation(chunk.map((text, i) => ({ sender: i % 2 ? "A" : "B", text })));
        changed += stored.filter((t, i) => t !== d.mask(chunk[i])).length;
      }
      return `${label}: ${((changed / texts.length) * 10_000).toFixed(1)} (${changed})`;
    });
    console.log(`${name.padEnd(15)} ${String(texts.length).padStart(6)} messages  ${cells.join("   ")}`);
  }
}
