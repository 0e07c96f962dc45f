// The sweep of the message logs (decision 0990) on ordinary chat: each shared dataset's messages
// in their order as one chat's log, read a page at a time as a chat object reads it (planSweep,
// counting). The baseline, from the same run, is masking each message alone — what a message
// arriving today gets; the sweep changes those rows and, for a value read in one row, the rows
// just after it that repeat it. What it changes beyond the baseline is what hiding repetitions
// costs ordinary chat.
import { importTs } from "../lib/ts-import.mjs";

/** Rows one object call reads (OBJECT_ROWS in credential-sweep-service.ts). */
const PAGE = 2_000;

export async function sweepOnOrdinaryChat(sets) {
  const sweep = await importTs("src/domain/history/log-sweep.ts");
  const { maskSensitiveDataInMessage } = await importTs("src/domain/privacy/credentials.ts");
  console.log("\nthe log sweep on ordinary chat: rows changed, masking each alone (baseline) / the sweep");
  for (const [name, texts] of sets) {
    const rows = texts.map((text, i) => ({
      transport: "qq",
      chatKey: "qq:group:eval",
      messageId: `m${i}`,
      ts: i,
      userId: null,
      accountKey: null,
      nick: null,
      text,
      tokens: "",
      rawJson: null,
      direction: "in",
    }));
    const alone = texts.filter((t) => maskSensitiveDataInMessage(t) !== t).length;
    const t0 = performance.now();
    let swept = 0;
    for (let at = 0; at < rows.length; at += PAGE) {
      const before = rows.slice(Math.max(0, at - sweep.READ_BEFORE), at);
      const page = rows.slice(at, at + PAGE + sweep.READ_BEFORE);
      swept += sweep.planSweep(before, page, PAGE, false).holding;
    }
    const us = Math.round(((performance.now() - t0) / rows.length) * 1000);
    console.log(
      `  ${name.padEnd(15)} ${String(rows.length).padStart(6)} rows  baseline ${alone}, sweep ${swept} (+${swept - alone}); ${us} µs a row (one run)`,
    );
  }
}
