/**
 * A file refused for a limit of conversion (how far it inflates, how deeply it nests) rather
 * than for being damaged. Thrown from inside a converter, where the limit is found, and turned
 * by the converter port into the import's `too-large` or `too-deep` result naming the limit.
 */
export class ConversionLimit extends Error {
  override readonly name = "ConversionLimit";
  readonly kind: "too-large" | "too-deep";

  constructor(kind: "too-large" | "too-deep", message: string) {
    super(message);
    this.kind = kind;
  }
}
