/**
 * A real loopback HTTP server that speaks enough of the Anthropic Messages API (`POST /v1/messages`
 * with `stream: true`) for tests: it records every request it receives and answers from a queue of
 * scripted responses — an SSE turn, an HTTP error, or a stream that stalls until the client hangs
 * up. Reusable by any test that needs a model behind `ANTHROPIC_BASE_URL` (e.g. CLI e2e tests).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** One server-sent event: `event: <event>` / `data: <JSON of data>`. */
export interface SseEvent {
  event: string;
  data: unknown;
}

/** What the server answers to one request. */
export type FakeResponse =
  /** A `text/event-stream` response sending `events` (with `delayMs` between them), then closing. */
  | { kind: "sse"; events: SseEvent[]; delayMs?: number }
  /** An HTTP error: `status` with a JSON `body` and extra `headers`. */
  | { kind: "http_error"; status: number; body: unknown; headers?: Record<string, string> }
  /** Sends `events` (possibly none), then keeps the connection open until the client closes it. */
  | { kind: "stall"; events?: SseEvent[] }
  /** Sends `events`, then destroys the socket mid-response (no end of the chunked body): a dropped connection. */
  | { kind: "drop"; events: SseEvent[] }
  /** Sends `events`, then only `ping` events every `everyMs` until the client hangs up: a stream with no content. */
  | { kind: "pings"; events?: SseEvent[]; everyMs: number };

/** A request the server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (or the raw text when it is not JSON). */
  body: any;
  /** Resolves when the exchange is over: "completed" when the server finished, "client_closed" when the client hung up first. */
  finished: Promise<"completed" | "client_closed">;
}

export interface FakeAnthropic {
  /** Base URL to hand to the SDK / `ANTHROPIC_BASE_URL`, e.g. `http://127.0.0.1:43123`. */
  url: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Queues responses; each request takes the next one. */
  enqueue(...responses: FakeResponse[]): void;
  /** Response used when the queue is empty (default: HTTP 500 "no response queued"). */
  setFallback(response: FakeResponse | undefined): void;
  /**
   * Answers by content before the queue is consulted: `route` sees each request's body and returns
   * a response, or undefined to use the queue (parallel children whose requests arrive in any order).
   */
  setRouter(route: ((body: any) => FakeResponse | undefined) | undefined): void;
  /** Number of responses still queued. */
  pending(): number;
  /** Forgets queued responses, recorded requests and the fallback (between tests). */
  reset(): void;
  /**
   * What `GET /v1/models` lists (ModelInfo objects, newest first; paged by `limit`/`after_id`), or
   * undefined for a 404 as a server without a model list answers. Those requests are recorded in
   * `modelRequests`, not `requests`. `delayMs`: each answer is sent that long after the request
   * (a slow list; the client may hang up first).
   */
  setModels(models: unknown[] | undefined, opts?: { delayMs?: number }): void;
  /** The `GET /v1/models` requests received; `finished` as a request's. */
  modelRequests: { path: string; headers: IncomingHttpHeaders; finished: Promise<"completed" | "client_closed"> }[];
  /** Stops the server, dropping open connections. */
  close(): Promise<void>;
}

/** Starts the fake server on 127.0.0.1 with an ephemeral port. */
export async function startFakeAnthropic(): Promise<FakeAnthropic> {
  const queue: FakeResponse[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let fallback: FakeResponse | undefined;
  let router: ((body: any) => FakeResponse | undefined) | undefined;
  let models: unknown[] | undefined;
  let modelsDelayMs = 0;
  const modelRequests: FakeAnthropic["modelRequests"] = [];

  const server = createServer((req, res) => {
    if (req.method === "GET" && (req.url ?? "").startsWith("/v1/models")) {
      const finished = new Promise<"completed" | "client_closed">((resolve) => res.on("close", () => resolve(res.writableFinished ? "completed" : "client_closed")));
      modelRequests.push({ path: req.url ?? "", headers: req.headers, finished });
      req.resume();
      const list = models;
      const answer = (): void => {
        if (res.destroyed) return;
        if (!list) return sendJson(res, 404, apiErrorBody("not_found_error", "fake-anthropic: no model list"));
        const url = new URL(req.url ?? "", "http://x");
        const limit = Number(url.searchParams.get("limit") ?? 20);
        const after = url.searchParams.get("after_id");
        const start = after ? list.findIndex((m) => (m as { id: string }).id === after) + 1 : 0;
        const page = list.slice(start, start + limit) as { id: string }[];
        sendJson(res, 200, { data: page, has_more: start + limit < list.length, first_id: page[0]?.id ?? null, last_id: page[page.length - 1]?.id ?? null });
      };
      if (modelsDelayMs > 0) setTimeout(answer, modelsDelayMs).unref();
      else answer();
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text;
      try {
        body = text === "" ? undefined : JSON.parse(text);
      } catch {
        // keep raw text
      }
      let settle!: (v: "completed" | "client_closed") => void;
      const finished = new Promise<"completed" | "client_closed">((resolve) => (settle = resolve));
      res.on("close", () => settle(res.writableFinished ? "completed" : "client_closed"));
      requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body, finished });

      if (req.method !== "POST" || !(req.url ?? "").startsWith("/v1/messages")) {
        sendJson(res, 404, apiErrorBody("not_found_error", `fake-anthropic: no route ${req.method} ${req.url}`));
        return;
      }
      const response = router?.(body) ?? queue.shift() ?? fallback;
      if (!response) {
        sendJson(res, 500, apiErrorBody("api_error", "fake-anthropic: no response queued"));
        return;
      }
      void respond(res, response);
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...responses) => queue.push(...responses),
    setFallback: (r) => (fallback = r),
    setRouter: (r) => (router = r),
    setModels: (m, opts) => {
      models = m;
      modelsDelayMs = opts?.delayMs ?? 0;
    },
    modelRequests,
    pending: () => queue.length,
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      fallback = undefined;
      router = undefined;
      models = undefined;
      modelsDelayMs = 0;
      modelRequests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

async function respond(res: ServerResponse, response: FakeResponse): Promise<void> {
  if (response.kind === "http_error") {
    sendJson(res, response.status, response.body, response.headers);
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  res.flushHeaders();
  const events = response.events ?? [];
  const delayMs = response.kind === "sse" ? (response.delayMs ?? 0) : 0;
  for (const e of events) {
    if (res.destroyed) return;
    res.write(`event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`);
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
  }
  if (response.kind === "sse") res.end();
  if (response.kind === "pings") {
    while (!res.destroyed && !res.writableEnded) {
      res.write(`event: ping\ndata: {"type":"ping"}\n\n`);
      await new Promise((r) => setTimeout(r, response.everyMs));
    }
  }
  // Let the written events reach the client before the socket goes: a cut mid-stream, not before it.
  if (response.kind === "drop") res.socket?.end(() => res.socket?.destroy());
  // "stall": leave the response open; the client's hang-up closes it.
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** The Messages API error body: `{type: "error", error: {type, message}}`. */
export function apiErrorBody(type: string, message: string): unknown {
  return { type: "error", error: { type, message } };
}

/** An HTTP error response with the API's JSON error body. */
export function httpError(status: number, type: string, message: string, headers?: Record<string, string>): FakeResponse {
  return { kind: "http_error", status, body: apiErrorBody(type, message), headers };
}

/** One content block of a scripted turn. */
export type TurnBlock =
  | { text: string }
  | { thinking: string; signature?: string }
  | { redactedThinking: string }
  | { toolUse: { id: string; name: string; input: unknown; rawJson?: string } };

export interface TurnOptions {
  stopReason?: string;
  model?: string;
  usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
  /** Delay between SSE events (ms). */
  delayMs?: number;
}

/** Splits a string into `n` roughly equal non-empty pieces (fewer when it is short). */
export function splitInto(s: string, n: number): string[] {
  if (s.length === 0) return [];
  const size = Math.max(1, Math.ceil(s.length / n));
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

/** The SSE events of a complete turn: text streamed in several deltas, tool input in several `input_json_delta` chunks. */
export function turnEvents(blocks: TurnBlock[], options: TurnOptions = {}): SseEvent[] {
  const u = options.usage ?? {};
  const hasTool = blocks.some((b) => "toolUse" in b);
  const events: SseEvent[] = [
    {
      event: "message_start",
      data: {
        type: "message_start",
        message: {
          id: "msg_fake",
          type: "message",
          role: "assistant",
          model: options.model ?? "claude-fake",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: u.input ?? 10,
            output_tokens: 1,
            cache_read_input_tokens: u.cacheRead ?? 0,
            cache_creation_input_tokens: u.cacheWrite ?? 0,
          },
        },
      },
    },
    { event: "ping", data: { type: "ping" } },
  ];
  const delta = (index: number, d: unknown): SseEvent => ({ event: "content_block_delta", data: { type: "content_block_delta", index, delta: d } });
  blocks.forEach((b, index) => {
    const start = (content_block: unknown): void => {
      events.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block } });
    };
    if ("text" in b) {
      start({ type: "text", text: "" });
      for (const t of splitInto(b.text, 3)) events.push(delta(index, { type: "text_delta", text: t }));
    } else if ("thinking" in b) {
      start({ type: "thinking", thinking: "", signature: "" });
      for (const t of splitInto(b.thinking, 3)) events.push(delta(index, { type: "thinking_delta", thinking: t }));
      events.push(delta(index, { type: "signature_delta", signature: b.signature ?? "sig-fake" }));
    } else if ("redactedThinking" in b) {
      start({ type: "redacted_thinking", data: b.redactedThinking });
    } else {
      const { id, name, input, rawJson } = b.toolUse;
      start({ type: "tool_use", id, name, input: {} });
      const json = rawJson ?? JSON.stringify(input);
      for (const part of splitInto(json, 4)) events.push(delta(index, { type: "input_json_delta", partial_json: part }));
    }
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
  });
  events.push(
    {
      event: "message_delta",
      data: {
        type: "message_delta",
        delta: { stop_reason: options.stopReason ?? (hasTool ? "tool_use" : "end_turn"), stop_sequence: null },
        usage: { output_tokens: u.output ?? 5 },
      },
    },
    { event: "message_stop", data: { type: "message_stop" } },
  );
  return events;
}

/** A scripted SSE turn response. */
export function sseTurn(blocks: TurnBlock[], options: TurnOptions = {}): FakeResponse {
  return { kind: "sse", events: turnEvents(blocks, options), delayMs: options.delayMs };
}

/** A text turn streamed in `pieces` deltas, `delayMs` apart (a paced answer). */
export function pacedText(text: string, pieces: number, delayMs: number): FakeResponse {
  const events = turnEvents([{ text: "" }]);
  const at = events.findIndex((e) => e.event === "content_block_stop");
  const deltas = splitInto(text, pieces).map((piece) => ({ event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: piece } } }));
  events.splice(at, 0, ...deltas);
  return { kind: "sse", events, delayMs };
}

/** A stream that starts a message, then sends an SSE `error` event (e.g. `overloaded_error`) and closes. */
export function sseError(type: string, message: string): FakeResponse {
  const start = turnEvents([]).slice(0, 2);
  return { kind: "sse", events: [...start, { event: "error", data: apiErrorBody(type, message) }] };
}
