/**
 * The weights of a trained reader as the training scripts write them (scripts/privacy/logistic.mjs):
 * the largest weights of a logistic regression over hashed features, each rounded to one of 255
 * steps and packed as 8 hex digits of `feature id << 8 | step`.
 */
export type PackedModel = { readonly bias: number; readonly scale: number; readonly weights: string };

/** The model's weights by feature id. */
export function unpackWeights(model: PackedModel): Map<number, number> {
  const hex = model.weights;
  const out = new Map<number, number>();
  for (let i = 0; i + 8 <= hex.length; i += 8) {
    const entry = Number.parseInt(hex.slice(i, i + 8), 16);
    out.set(entry >>> 8, ((entry & 0xff) - 128) * model.scale);
  }
  return out;
}

/** The model's probability for a set of distinct feature ids. */
export function logisticScore(
  model: PackedModel,
  weights: Map<number, number>,
  ids: Iterable<number>,
): number {
  let sum = model.bias;
  for (const id of ids) sum += weights.get(id) ?? 0;
  return 1 / (1 + Math.exp(-sum));
}
