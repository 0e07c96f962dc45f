// The weights of the trained readers as `npm run privacy:train` packs them
// (src/domain/privacy/packed-weights.ts): each entry is a feature id and one of 255 steps.
import { CREDENTIAL_READER_MODEL } from "@src/domain/privacy/credential-reader-weights";
import { logisticScore, unpackWeights } from "@src/domain/privacy/packed-weights";
import { READER_MODEL } from "@src/domain/privacy/request-reader-weights";
import { describe, it } from "vitest";

describe("packed weights", () => {
  it("unpack to feature ids and steps times the scale, and score as a logistic of their sum", ({
    expect,
  }) => {
    // Feature 5 at step +2 (byte 130), feature 0x1234 at step -1 (byte 127).
    const model = {
      bias: -1,
      scale: 0.5,
      weights: `${((5 << 8) | 130).toString(16).padStart(8, "0")}${((0x1234 << 8) | 127).toString(16).padStart(8, "0")}`,
    };
    const weights = unpackWeights(model);
    expect([...weights]).toEqual([
      [5, 1],
      [0x1234, -0.5],
    ]);
    expect(logisticScore(model, weights, [5, 0x1234, 99])).toBeCloseTo(1 / (1 + Math.exp(0.5)), 12);
    expect(logisticScore(model, weights, [])).toBeCloseTo(1 / (1 + Math.exp(1)), 12);
  });

  it.for([
    ["privacy requests", READER_MODEL],
    ["credential values", CREDENTIAL_READER_MODEL],
  ] as const)(
    "the reader of %s holds what the trainer wrote: whole entries, a finite bias and scale",
    ([, model], { expect }) => {
      expect(model.weights).toMatch(/^(?:[0-9a-f]{8})+$/);
      expect(model.weights.length / 8).toBeGreaterThan(1000);
      expect(Number.isFinite(model.bias)).toBe(true);
      expect(model.scale).toBeGreaterThan(0);
    },
  );
});
