/**
 * Text as the detectors read it, with a way back to the text as it was written
 * (docs/invariants.md#credentials-are-never-stored-in-memory). People write the same word many
 * ways: full-width letters (ｐａｓｓｗｏｒｄ), a zero-width character inside a value, a QQ face or
 * an emoji between a keyword and its value, traditional characters (密碼, 別告訴別人). The
 * detectors match the normalised form; every finding is mapped back to the original offsets, so
 * what is masked or removed is the original writing and the rest keeps its words.
 *
 * Steps, each per character so offsets stay known: invisible format characters (zero-width
 * space and joiners, word joiner, BOM, variation selectors) are dropped; QQ faces (`[表情]`, `[doge]`, `[捂脸]`,
 * `[face:12]`, `[CQ:face,id=12]`, `<faceType=…>`, `<emoji:…>`) and emoji become one space;
 * NFKC folds full-width and compatibility forms; traditional Chinese becomes simplified with
 * OpenCC's dictionaries (opencc-js), phrase-aware when the conversion keeps the length.
 */
import { Converter } from "opencc-js/t2cn";

/** A normalised text and, for each of its UTF-16 units, the original range it came from. */
export type DetectionText = {
  readonly text: string;
  /** Original start offset of each unit of `text`. */
  readonly starts: readonly number[];
  /** Original end offset (exclusive) of each unit of `text`. */
  readonly ends: readonly number[];
};

export type Span = { readonly start: number; readonly end: number };

const toSimplified = Converter({ from: "t", to: "cn" });

/** Zero-width and other invisible format characters, emoji variation selectors, and the keycap mark (4️⃣ reads 4). */
const INVISIBLE = /^(?:\p{Cf}|[\uFE00-\uFE0F]|[\u180B-\u180D]|\u034F|\u20E3)$/u;
/** Faces as QQ and OneBot write them in text and in raw payloads, and emoji. */
const FACES =
  /\[表情\]|\[(?:doge|OK|ok|\p{Script=Han}{1,4})\]|\[face:?\s*\d{1,4}\]|\[CQ:(?:m?face|bface|sface|emoji)(?:,[^\]]*)?\]|<faceType=[^>]*>|<emoji:[^>]*>|\p{Extended_Pictographic}(?:\u200D\p{Extended_Pictographic})*|[\u{1F1E6}-\u{1F1FF}]{2}/gu;

/** The original text as a detection text that changes nothing (the fast path). */
function identity(text: string): DetectionText {
  const starts = Array.from({ length: text.length }, (_, i) => i);
  return { text, starts, ends: starts.map((i) => i + 1) };
}

class Builder {
  text = "";
  starts: number[] = [];
  ends: number[] = [];
  push(piece: string, start: number, end: number): void {
    this.text += piece;
    for (let i = 0; i < piece.length; i++) {
      this.starts.push(start);
      this.ends.push(end);
    }
  }
  done(): DetectionText {
    return { text: this.text, starts: this.starts, ends: this.ends };
  }
}

/** Invisible characters dropped, faces and emoji made one space, each character NFKC-folded. */
function fold(text: string): DetectionText {
  const out = new Builder();
  const faces = [...text.matchAll(FACES)];
  let at = 0;
  const plain = (until: number) => {
    for (const ch of text.slice(at, until)) {
      const start = at;
      at += ch.length;
      if (INVISIBLE.test(ch)) continue;
      out.push(ch.normalize("NFKC"), start, at);
    }
  };
  for (const f of faces) {
    plain(f.index);
    out.push(" ", f.index, f.index + f[0].length);
    at = f.index + f[0].length;
  }
  plain(text.length);
  return out.done();
}

/** Traditional characters as simplified; per character when a phrase would change the length. */
function simplify(folded: DetectionText): DetectionText {
  if (!/\p{Script=Han}/u.test(folded.text)) return folded;
  const whole = toSimplified(folded.text);
  if (whole.length === folded.text.length) return { ...folded, text: whole };
  const text = [...folded.text].map((ch) => {
    const s = toSimplified(ch);
    return s.length === ch.length ? s : ch;
  });
  return { ...folded, text: text.join("") };
}

/** `text` as the detectors read it. */
export function detectionText(text: string): DetectionText {
  // Printable ASCII and line breaks have nothing to fold.
  if (/^[\x20-\x7E\n\r\t]*$/.test(text)) return identity(text);
  return simplify(fold(text));
}

/** A span of the detection text as the span of the original text it came from. */
export function originalSpan(t: DetectionText, span: Span): Span {
  if (span.end <= span.start) return { start: t.starts[span.start] ?? 0, end: t.starts[span.start] ?? 0 };
  return { start: t.starts[span.start] ?? 0, end: t.ends[span.end - 1] ?? 0 };
}

/**
 * `t` with each span replaced by its piece, every new unit mapped to the whole original range its
 * span covered: for corrections that change the length (a typo fixed to its word, a dialect word
 * read as Mandarin). Built in one pass, so a long text with many corrections stays linear. Spans
 * must not overlap.
 */
export function replaceSpans(
  t: DetectionText,
  pieces: readonly { readonly span: Span; readonly piece: string }[],
): DetectionText {
  if (pieces.length === 0) return t;
  const sorted = [...pieces].sort((a, b) => a.span.start - b.span.start);
  let text = "";
  const starts: number[] = [];
  const ends: number[] = [];
  let at = 0;
  const keep = (to: number) => {
    text += t.text.slice(at, to);
    for (let i = at; i < to; i++) {
      starts.push(t.starts[i] ?? 0);
      ends.push(t.ends[i] ?? 0);
    }
  };
  for (const { span, piece } of sorted) {
    keep(span.start);
    const { start, end } = originalSpan(t, span);
    text += piece;
    for (let i = 0; i < piece.length; i++) {
      starts.push(start);
      ends.push(end);
    }
    at = span.end;
  }
  keep(t.text.length);
  return { text, starts, ends };
}
