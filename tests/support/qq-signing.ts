/**
 * Builds webhook requests exactly as the QQ platform sends them (docs/qq-protocol.md#qq-webhook-requests): POST, JSON body,
 * `X-Bot-Appid` and an Ed25519 signature over `X-Signature-Timestamp` + the body bytes.
 * For route tests; the body text is sent unchanged, so whitespace is signed as written.
 */
import { signQqMessage } from "@src/adapters/qq/qq-signature";

export type QqSigningOptions = {
  readonly secret: string;
  readonly appId: string;
  /** Unix seconds as sent in the header; defaults to now. */
  readonly timestamp?: string;
};

/** A signed platform request for `url` with `bodyText` as its body. */
export async function signedQqRequest(
  url: string,
  bodyText: string,
  options: QqSigningOptions,
): Promise<Request> {
  const timestamp = options.timestamp ?? String(Math.floor(Date.now() / 1000));
  const signature = await signQqMessage(options.secret, `${timestamp}${bodyText}`);
  return new Request(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "User-Agent": "QQBot-Callback",
      "X-Bot-Appid": options.appId,
      "X-Signature-Ed25519": signature,
      "X-Signature-Method": "Ed25519",
      "X-Signature-Timestamp": timestamp,
    },
    body: bodyText,
  });
}
