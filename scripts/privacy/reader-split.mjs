// Which ordinary messages of the shared datasets the trained reader of privacy requests learns
// from: the first byte of a message's sha1 below 128. The evaluation counts the other half, which
// the reader has never seen (docs/decisions/0630-a-trained-reader-of-privacy-requests.md).
import { createHash } from "node:crypto";

export const readerTrainsOn = (text) => createHash("sha1").update(text).digest()[0] < 128;
