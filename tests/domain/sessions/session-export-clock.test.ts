// `sessions export` shows its days and times in `calendar.timeZone` with the offset: the same
// message that the bot's "昨天" puts on 12-03 (Shanghai) is on 12-03 in the export, not UTC's 12-02.

import { renderSessionExport } from "@src/domain/sessions/session-export";
import type { ExportData, SessionInfo } from "@src/domain/sessions/session-registry";
import { describe, it } from "vitest";

/** 2026-12-02T16:30Z: 12-03 00:30 in Shanghai, 12-02 08:30 in Los Angeles. */
const MESSAGE = Date.parse("2026-12-02T16:30:00Z");
const NOW = Date.parse("2026-12-04T02:00:00Z");

const session: SessionInfo = {
  sessionId: "s_1",
  chatKey: "qq:group:G1",
  targetType: "group",
  alias: "team",
  title: null,
  clusterId: "s_1",
  storeEnabled: true,
  keepDays: null,
  lastSeen: MESSAGE,
};

const data: ExportData = {
  memory: [
    {
      nodeId: "m_1",
      kind: "decision",
      text: "团建定在周五",
      sensitivity: "public",
      status: "active",
      createdAt: MESSAGE,
    },
  ],
  summaries: [
    {
      nodeId: "n_1",
      kind: "summary",
      text: "讨论团建",
      sensitivity: "public",
      status: "active",
      createdAt: MESSAGE,
    },
  ],
  log: [{ ts: MESSAGE, direction: "in", nick: "小明", text: "团建定在周五" }],
};

describe("renderSessionExport", () => {
  it("puts the message on Shanghai's 12-03, with the offset, and names the zone", ({ expect }) => {
    const md = renderSessionExport(session, data, NOW, "Asia/Shanghai");
    expect(md).toContain("- exported: 2026-12-04 10:00:00 +08:00 (Asia/Shanghai)");
    expect(md).toContain("- 2026-12-03 00:30:00 +08:00 ← 小明: 团建定在周五");
    expect(md).toContain("(public, 2026-12-03, m_1)");
    expect(md).toContain("- 2026-12-03: 讨论团建");
    expect(md).not.toContain("2026-12-02");
    expect(md).not.toContain("UTC");
  });

  it("follows a zone west of UTC, where the same instant is 12-02", ({ expect }) => {
    const md = renderSessionExport(session, data, NOW, "America/Los_Angeles");
    expect(md).toContain("- exported: 2026-12-03 18:00:00 -08:00 (America/Los_Angeles)");
    expect(md).toContain("- 2026-12-02 08:30:00 -08:00 ← 小明: 团建定在周五");
    expect(md).toContain("- 2026-12-02: 讨论团建");
    expect(md).not.toContain("2026-12-03 00:30");
  });
});
