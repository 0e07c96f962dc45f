// The CLI's text output shows times in the deployment's `calendar.timeZone` with the offset,
// like the dashboard and the exports; `--json` stays the API's data, untouched, and asks for
// nothing more. Checked at the day boundary in Shanghai and in Los Angeles.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { time } from "../../scripts/cli/format.mjs";
import { runCli, standInServer } from "../support/cli-harness.mjs";

/** 2026-12-02T16:30Z: 12-03 00:30 in Shanghai, 12-02 08:30 in Los Angeles. */
const MESSAGE = Date.parse("2026-12-02T16:30:00Z");

const seen = [];
let zone = "Asia/Shanghai";
let settingsStatus = 200;
const stand = standInServer((req, url) => {
  seen.push(`${req.method} ${url.pathname}`);
  const answers = {
    "/api/messages": [
      200,
      {
        chat: "qq:group:G1",
        messages: [{ seq: 1, ts: MESSAGE, direction: "in", nick: "小明", text: "团建定在周五" }],
      },
    ],
    "/api/audit": [
      200,
      {
        entries: [
          {
            id: 1,
            at: MESSAGE,
            actor: "admin-api",
            action: "admins.claim_code",
            chatKey: null,
            detail: { expiresAt: MESSAGE },
          },
        ],
      },
    ],
    "/api/chats": [
      200,
      {
        chats: [
          { chatKey: "qq:group:G1", targetType: "group", followed: true, lastSeen: MESSAGE, title: null },
        ],
      },
    ],
    "/api/settings": [
      settingsStatus,
      settingsStatus === 200 ? { effective: { calendar: { timeZone: zone } } } : { error: "forbidden" },
    ],
  };
  return answers[url.pathname] ?? [404, { error: "not-found" }];
});

/** Runs the CLI against the stand-in; returns { code, out, requests } with the requests of this run. */
async function cli(argv) {
  seen.length = 0;
  const { code, out } = await runCli([...argv, "--url", stand.base], { AKASHA_ADMIN_TOKEN: "tok" });
  return { code, out, requests: [...seen] };
}

describe("time", () => {
  it("writes the format of src/domain/kernel/local-time.ts, offset included", () => {
    // The same strings tests/domain/kernel/local-time.test.ts expects of formatLocalTime.
    assert.equal(time(MESSAGE, "Asia/Shanghai"), "2026-12-03 00:30 +08:00");
    assert.equal(time(MESSAGE, "America/Los_Angeles"), "2026-12-02 08:30 -08:00");
    assert.equal(time(Date.parse("2026-12-03T08:00:00Z"), "America/Los_Angeles"), "2026-12-03 00:00 -08:00");
    assert.equal(time(Date.parse("2026-07-01T06:30:00Z"), "America/Los_Angeles"), "2026-06-30 23:30 -07:00");
    assert.equal(time(MESSAGE, "Asia/Kathmandu"), "2026-12-02 22:15 +05:45");
    assert.equal(time(MESSAGE, "UTC"), "2026-12-02 16:30 +00:00");
    assert.equal(time(null, "UTC"), "—");
  });
});

describe("text output in the calendar's zone", () => {
  it("messages, audit and chats show the message on Shanghai's 12-03 at 00:30 +08:00", async () => {
    zone = "Asia/Shanghai";
    settingsStatus = 200;
    for (const argv of [["messages", "qq:group:G1"], ["audit"], ["chats"]]) {
      const r = await cli(argv);
      assert.equal(r.code, 0, argv.join(" "));
      assert.match(r.out, /2026-12-03 00:30 \+08:00/, argv.join(" "));
      assert.doesNotMatch(r.out, /16:30|Z\b/, argv.join(" "));
    }
    const audit = await cli(["audit"]);
    assert.match(audit.out, /expiresAt=2026-12-03 00:30 \+08:00/);
    assert.doesNotMatch(audit.out, new RegExp(String(MESSAGE)));
  });

  it("follows a zone west of UTC: the same message is 12-02 08:30 -08:00", async () => {
    zone = "America/Los_Angeles";
    settingsStatus = 200;
    const r = await cli(["messages", "qq:group:G1"]);
    assert.match(r.out, /2026-12-02 08:30 -08:00 +← +小明 +团建定在周五/);
  });

  it("a Worker that does not answer its settings gets UTC, still with the offset", async () => {
    settingsStatus = 403;
    const r = await cli(["chats"]);
    assert.equal(r.code, 0);
    assert.match(r.out, /2026-12-02 16:30 \+00:00/);
    settingsStatus = 200;
  });

  it("--json prints the API's data as it came and makes no settings request", async () => {
    zone = "Asia/Shanghai";
    const r = await cli(["messages", "qq:group:G1", "--json"]);
    assert.equal(r.code, 0);
    assert.deepEqual(JSON.parse(r.out).messages[0], {
      seq: 1,
      ts: MESSAGE,
      direction: "in",
      nick: "小明",
      text: "团建定在周五",
    });
    assert.deepEqual(r.requests, ["GET /api/messages"]);
  });
});
