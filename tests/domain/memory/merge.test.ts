import type { MemoryEvidence } from "@src/domain/memory/memory";
import { joinEvidence, MERGED_CONFIDENCE_CAP, mergedConfidence, mergeInto } from "@src/domain/memory/merge";
import { describe, expect, it } from "vitest";

const ev = (session: string, ids: string[], runId = "r1"): MemoryEvidence => ({
  session,
  messageIds: ids,
  account: "qq:user:U1",
  person: null,
  origin: "dream",
  runId,
});

describe("merging a restatement", () => {
  it("raises confidence, bounded, and never lowers it", () => {
    expect(mergedConfidence(0.6, 0.6)).toBe(0.84);
    expect(mergedConfidence(0.9, 0.9)).toBe(MERGED_CONFIDENCE_CAP);
    expect(mergedConfidence(1, 0.6)).toBe(1);
    expect(mergedConfidence(0.7, 0)).toBe(0.7);
  });

  it("joins message ids and sources, the first statement's source kept", () => {
    const joined = joinEvidence(ev("qq:private:U1", ["m1"]), ev("qq:private:U1", ["m2", "m1"], "r2"));
    expect(joined.messageIds).toEqual(["m1", "m2"]);
    expect(joined.sources?.map((s) => s.runId)).toEqual(["r1", "r2"]);
    expect(joined.session).toBe("qq:private:U1");
  });

  it("takes the stricter sensitivity and never lowers it", () => {
    const target = {
      nodeId: "m_x",
      importance: 0.5,
      confidence: 0.6,
      sensitivity: "private" as const,
      sensitivitySource: "origin" as const,
      evidence: ev("qq:private:U1", ["m1"]),
    };
    const publicExplicit = { sensitivity: "public" as const, source: "explicit" as const };
    const kept = mergeInto(target, {
      evidence: ev("qq:group:G1", ["m9"]),
      confidence: 1,
      importance: 0.6,
      tag: publicExplicit,
    });
    expect(kept.update.tag).toBeUndefined();
    expect(kept.merged.sensitivity).toBe("private");
    const secret = { sensitivity: "secret_like" as const, source: "dream" as const };
    const raised = mergeInto(target, {
      evidence: ev("qq:private:U1", ["m2"]),
      confidence: 0.6,
      importance: 0.5,
      tag: secret,
    });
    expect(raised.update.tag).toEqual(secret);
    expect(raised.update.importance).toBe(0.55);
    expect(raised.update.confidence).toBe(0.84);
  });
});
