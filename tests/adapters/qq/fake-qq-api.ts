/**
 * An in-memory QQ token endpoint and OpenAPI behind a `fetch`, keeping the real contract
 * (docs/qq-protocol.md): the token endpoint takes `{appId, clientSecret}` and answers
 * `{access_token, expires_in: "<seconds>"}` (a string); the API wants `Authorization: QQBot
 * <token>` and answers unknown tokens with 401 `{code: 11244}`; errors are `{code, message}`.
 */

export const TOKEN_URL = "https://bots.test/app/getAppAccessToken";
export const API_BASE = "https://api.test";

export type RecordedCall = {
  readonly url: string;
  readonly path: string;
  readonly method: string;
  readonly authorization: string | null;
  readonly contentType: string | null;
  readonly body: unknown;
  readonly hasSignal: boolean;
};

type Scripted = { readonly status: number; readonly body: unknown } | { readonly throws: Error };

export class FakeQqApi {
  readonly tokenCalls: RecordedCall[] = [];
  readonly apiCalls: RecordedCall[] = [];
  /** `expires_in` of the next tokens issued; the platform sends a string. */
  expiresIn: string | number = "7200";
  /** When set, token requests wait for it: lets a test hold concurrent refreshes in flight. */
  tokenGate: Promise<void> | null = null;
  /** Every token request fails with this instead of issuing a token. */
  tokenFailure: Scripted | null = null;

  readonly #validTokens = new Set<string>();
  readonly #scripted: Scripted[] = [];
  #issued = 0;
  #sent = 0;

  constructor(
    readonly appId = "102000000",
    readonly secret = "kV8sZ2pQ7xR4mN1b",
  ) {}

  /** The next API calls answer with these, in order, before tokens are even checked. */
  script(...responses: Scripted[]): void {
    this.#scripted.push(...responses);
  }

  /** The platform forgets `token` (expired or revoked). */
  revoke(token: string): void {
    this.#validTokens.delete(token);
  }

  revokeAll(): void {
    this.#validTokens.clear();
  }

  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const text = await request.text();
    const call: RecordedCall = {
      url: request.url,
      path: url.pathname,
      method: request.method,
      authorization: request.headers.get("authorization"),
      contentType: request.headers.get("content-type"),
      body: text ? JSON.parse(text) : null,
      hasSignal: init?.signal instanceof AbortSignal,
    };
    if (request.url === TOKEN_URL) return this.#token(call);
    if (request.url.startsWith(API_BASE)) return this.#api(call);
    return json(404, { code: 404, message: "no such host in the fake" });
  };

  async #token(call: RecordedCall): Promise<Response> {
    this.tokenCalls.push(call);
    if (this.tokenGate) await this.tokenGate;
    if (this.tokenFailure) return respond(this.tokenFailure);
    const body = call.body as { appId?: unknown; clientSecret?: unknown } | null;
    if (body?.appId !== this.appId || body?.clientSecret !== this.secret) {
      return json(200, { code: 100016, message: "invalid appid or secret" });
    }
    this.#issued += 1;
    const token = `token-${this.#issued}`;
    this.#validTokens.add(token);
    return json(200, { access_token: token, expires_in: this.expiresIn });
  }

  #api(call: RecordedCall): Response {
    this.apiCalls.push(call);
    const scripted = this.#scripted.shift();
    if (scripted) return respond(scripted);
    const token = call.authorization?.match(/^QQBot (.+)$/)?.[1];
    if (!token || !this.#validTokens.has(token)) {
      return json(401, { code: 11244, message: "token not exist or expire", err_code: 11244 });
    }
    this.#sent += 1;
    if (call.path.startsWith("/v2/")) {
      return json(200, { id: `SENT-${this.#sent}`, timestamp: "2025-01-01T08:00:05+08:00" });
    }
    // Guild endpoints answer with the full Message object.
    return json(200, {
      id: `GUILD-${this.#sent}`,
      channel_id: "100010",
      guild_id: "18700000000001",
      content: (call.body as { content?: string }).content,
      timestamp: "2025-01-01T08:00:06+08:00",
      author: { id: "6158788878435714165", username: "bot", bot: true },
    });
  }
}

function respond(scripted: Scripted): Response {
  if ("throws" in scripted) throw scripted.throws;
  return json(scripted.status, scripted.body);
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "X-Tps-Trace-Id": "trace-0001" },
  });
}
