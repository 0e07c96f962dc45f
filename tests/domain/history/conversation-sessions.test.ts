import { CONVERSATION_GAP_MS, segmentSessions } from "@src/domain/history/conversation-sessions";
import { describe, it } from "vitest";

const MIN = 60_000;

describe("segmentSessions", () => {
  it("opens a session after more than the gap of silence, and only then", ({ expect }) => {
    const points = [
      0,
      5 * MIN,
      5 * MIN + CONVERSATION_GAP_MS,
      5 * MIN + 2 * CONVERSATION_GAP_MS + 1,
      200 * MIN,
    ].map((ts, i) => ({ seq: 10 + i, ts }));
    expect(segmentSessions(points)).toEqual([
      { firstSeq: 10, lastSeq: 12, firstTs: 0, lastTs: 5 * MIN + CONVERSATION_GAP_MS, messages: 3 },
      {
        firstSeq: 13,
        lastSeq: 13,
        firstTs: 5 * MIN + 2 * CONVERSATION_GAP_MS + 1,
        lastTs: 5 * MIN + 2 * CONVERSATION_GAP_MS + 1,
        messages: 1,
      },
      { firstSeq: 14, lastSeq: 14, firstTs: 200 * MIN, lastTs: 200 * MIN, messages: 1 },
    ]);
  });

  it("keeps messages of the same millisecond in one session, and has none for no messages", ({ expect }) => {
    expect(
      segmentSessions([
        { seq: 1, ts: 7 },
        { seq: 2, ts: 7 },
      ]),
    ).toEqual([{ firstSeq: 1, lastSeq: 2, firstTs: 7, lastTs: 7, messages: 2 }]);
    expect(segmentSessions([])).toEqual([]);
  });
});
