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
  // A value sent alone and named afterwards by its sender (decisions 0860, 0870): one set measured
  // once, then read; the other two held back.
  ["held back, never tuned on", "credentials-held-back-named-2.jsonl"],
  ["held back, never tuned on", "credentials-held-back-named-3.jsonl"],
  ["read after it was measured", "credentials-read-named.jsonl"],
  // A secret told of first and sent bare later by its teller (decision 1060): one set read while
  // the rule was written, the other held back.
  ["read while its rule was written", "credentials-read-said-earlier.jsonl"],
  ["held back, never tuned on", "credentials-held-back-said-earlier.jsonl"],
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
    // The named sets said to the bot too: not held, masked by the naming where stored (decision 0880).
    const ways = name.includes("-named") ? [false, true] : [false];
    for (const addressed of ways)
      for (const [label, d] of detectors) {
        const stored = (r) => d.conversation(r.messages, addressed).join("\n");
        const changed = (r) => stored(r) !== r.messages.map((m) => m.text).join("\n");
        const gone = positives.filter((r) => !stored(r).includes(r.secret)).length;
        const shown = addressed ? `${label}, to the bot` : label;
        console.log(
          `  ${shown.padEnd(addressed ? 26 : 20)} secret gone ${gone}/${positives.length}, near misses changed ${near.filter(changed).length}/${near.length}, ordinary changed ${ordinary.filter(changed).length}/${ordinary.length}`,
        );
      }
  }
}

/**
 * The chat-wide cues on ordinary chat, read two ways, counting the messages the cues change beyond
 * what masking each message alone does. As it is: each shared dataset's messages in their order,
 * two speakers taking turns, a message a second (a question misread as asking for a password).
 * After a question: every two of the first 1,500 messages said by two members right after a third
 * asks "房间密码？" — the worst case of chatter that follows such a question and gives nothing.
 */
export function ordinaryConversations(detectors, sets) {
  console.log("\nthe chat's cues on ordinary chat: messages changed, as it is / after a password question");
  for (const [name, texts] of sets) {
    const after = texts.slice(0, 1_500);
    const cells = detectors.map(([label, d]) => {
      const changedIn = (messages) =>
        d.conversation(messages).filter((t, i) => t !== d.mask(messages[i].text)).length;
      let asIs = 0;
      for (let at = 0; at < texts.length; at += 100)
        asIs += changedIn(texts.slice(at, at + 100).map((text, i) => ({ sender: i % 2 ? "A" : "B", text })));
      let asked = 0;
      for (let i = 0; i + 1 < after.length; i += 2)
        asked += changedIn([
          { sender: "Q", text: "房间密码？" },
          { sender: "A", text: after[i] },
          { sender: "B", text: after[i + 1] },
        ]);
      return `${label}: ${asIs}/${texts.length}, ${asked}/${after.length}`;
    });
    console.log(`${name.padEnd(15)} ${cells.join("   ")}`);
  }
  console.log("\nordinary messages held back for their sender's naming (decisions 0860, 0870)");
  for (const [name, texts] of sets) {
    const cells = detectors.map(
      ([label, d]) => `${label}: ${texts.filter((t) => d.held(t)).length}/${texts.length}`,
    );
    console.log(`${name.padEnd(15)} ${cells.join("   ")}`);
  }
}
