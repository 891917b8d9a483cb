/**
 * One delivery attempt: POST the signed body to the endpoint and record how it went. A failed
 * attempt is a result, never a throw: the caller (the outbox) stores it and schedules the next
 * one (retry-schedule.ts) the same way whatever went wrong. Only a caller's mistake throws
 * (headers node refuses to send).
 *
 * What keeps an attempt inside the address policy (address-policy.ts):
 * - the URL is checked first (https only, no credentials, no private IP literal);
 * - a name is resolved and checked before connecting, then again by the `lookup` the socket
 *   connects with (guarded-lookup.ts), so a DNS answer that changes in between gains nothing;
 * - redirects are never followed (node does not follow them; a 3xx is a failed attempt), so an
 *   endpoint cannot send the request on to an address the policy refuses;
 * - `agent: false`, a fresh socket an attempt: no keep-alive socket opened for one name, to an
 *   address checked for that name, carries a request for another; nor the global agent, which
 *   NODE_USE_ENV_PROXY can point at a proxy whose address the lookup would check instead.
 */
import http, { type IncomingMessage, type RequestOptions } from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { checkEndpointUrl, endpointHost, isIpAddress } from './address-policy';
import { type AddressGuard, guardedLookup, RefusedAddressError, type ResolveHost, resolveReachable, resolveWithDns } from './guarded-lookup';

/** The whole attempt, connecting and the answer together: a receiver should answer at once and work later. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Past this the answer is not read further; the attempt is judged by its status all the same. */
export const MAX_ANSWER_BYTES = 65_536;
/** How much of the answer an attempt keeps, for the site owner's delivery history. */
export const ANSWER_CHARS = 1024;

/**
 * Why an attempt failed, where its status alone does not say it. A non-2xx answer that is not a
 * redirect has its `status` and no `error`.
 * - `badUrl`: not a URL, not https (without allowPrivate), or with credentials;
 * - `refusedAddress`: the URL names, or its name resolves to, an address the policy refuses;
 * - `timeout`: no whole answer within the time (a status may have come);
 * - `redirect`: a 3xx, which is not followed;
 * - `connection`: the name did not resolve, the connection was refused or dropped, TLS failed.
 */
export type DeliveryError = 'badUrl' | 'refusedAddress' | 'timeout' | 'redirect' | 'connection';

export interface DeliveryResult {
  /** A 2xx answer, read to its end or up to the cut. */
  ok: boolean;
  status?: number;
  /** From the start of the attempt to its end (the answer read, or the failure). */
  durationMs: number;
  /** The first ANSWER_CHARS characters of the answer, as UTF-8 text. */
  answer: string;
  /** The answer was longer than maxAnswerBytes and was not read to its end (not an error). */
  cut: boolean;
  error?: DeliveryError;
  /** A short human-readable word on the error (`ECONNREFUSED`, the refused address, …). */
  detail?: string;
}

export interface DeliveryRequest {
  url: string;
  /** Local development: http and private addresses allowed (cloud metadata never). */
  allowPrivate?: boolean;
  /** The webhook's headers (signature.ts's webhookHeaders); content-length is added here. */
  headers: Record<string, string>;
  /** Exactly the text that was signed. */
  body: string;
  timeoutMs?: number;
  maxAnswerBytes?: number;
  /** Resolves a name to all its addresses; dns.lookup unless a test makes a name mean an address. */
  lookup?: ResolveHost;
}

type Outcome = Omit<DeliveryResult, 'durationMs'>;

export function deliverWebhook(request: DeliveryRequest): Promise<DeliveryResult> {
  const { allowPrivate = false, timeoutMs = DELIVERY_TIMEOUT_MS, maxAnswerBytes = MAX_ANSWER_BYTES, lookup = resolveWithDns } = request;
  const started = performance.now();
  const done = (outcome: Outcome): DeliveryResult => ({ ...outcome, durationMs: Math.round(performance.now() - started) });

  const url = checkEndpointUrl(request.url, { allowPrivate });
  if (!(url instanceof URL)) return Promise.resolve(done({ ok: false, answer: '', cut: false, error: url.reason, detail: `the URL ${url.problem}` }));
  const guard: AddressGuard = { allowPrivate, resolve: lookup };
  const host = endpointHost(url);
  // An IP literal was checked with the URL, and node's net does not look it up.
  const isLiteral = isIpAddress(host);

  return new Promise((resolve, reject) => {
    let settled = false;
    let cancel = () => {};
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      cancel();
      resolve(done(outcome));
    };
    const answer = new AnswerReader(maxAnswerBytes);
    const timer = setTimeout(
      () => finish({ ok: false, ...answer.partial(), error: 'timeout', detail: `no complete answer within ${timeoutMs} ms` }),
      timeoutMs,
    );

    (isLiteral ? Promise.resolve() : resolveReachable(host, guard)).then(
      () => {
        if (settled) return;
        let sending: ReturnType<typeof send>;
        try {
          sending = send(url, host, request, guard, (response) => {
            answer.read(response, (outcome) => finish(outcome));
          });
        } catch (error) {
          // A header node refuses (a line break in a value): the caller's mistake, not a failed
          // attempt, so it is thrown like signWebhook's, and at once rather than at the timeout.
          settled = true;
          clearTimeout(timer);
          return reject(error);
        }
        sending.on('error', (error) => finish({ ok: false, ...answer.partial(), ...failure(error, 'at connect time') }));
        cancel = () => sending.destroy();
        sending.end(request.body);
      },
      (error: unknown) => finish({ ok: false, answer: '', cut: false, ...failure(error, 'before connecting') }),
    );
  });
}

function send(url: URL, host: string, request: DeliveryRequest, guard: AddressGuard, onResponse: (response: IncomingMessage) => void) {
  const options: RequestOptions = {
    method: 'POST',
    hostname: host,
    ...(url.port && { port: Number(url.port) }),
    path: `${url.pathname}${url.search}`,
    headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
    agent: false,
    lookup: guardedLookup(guard),
  };
  return (url.protocol === 'https:' ? https : http).request(options, onResponse);
}

function failure(error: unknown, when: string): Pick<DeliveryResult, 'error' | 'detail'> {
  if (error instanceof RefusedAddressError) return { error: 'refusedAddress', detail: `${error.message} (${when})` };
  const { code, message } = error as NodeJS.ErrnoException;
  return { error: 'connection', detail: code ?? message };
}

/**
 * Reads an answer up to a byte limit and keeps its first characters. Only the first ANSWER_CHARS
 * characters are kept, so only their most bytes (4 a character in UTF-8) are held; the rest is
 * counted and let go.
 */
class AnswerReader {
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private readBytes = 0;
  private status: number | undefined;
  private cut = false;

  constructor(private readonly maxBytes: number) {}

  read(response: IncomingMessage, finish: (outcome: Outcome) => void): void {
    this.status = response.statusCode;
    const complete = () => finish(this.judged());
    response.on('data', (chunk: Buffer) => {
      const room = this.maxBytes - this.readBytes;
      this.keep(chunk.subarray(0, room));
      this.readBytes += Math.min(chunk.length, room);
      // Stop reading, not fail: a 2xx that talks too much was still received.
      if (chunk.length > room) {
        this.cut = true;
        complete();
      }
    });
    response.on('end', complete);
    // Closed before its end: the receiver reset the connection (the cut and the timeout close it
    // too, but their outcome was taken first).
    const dropped = () => finish({ ok: false, ...this.partial(), error: 'connection', detail: 'the answer broke off' });
    response.on('error', dropped);
    response.on('close', () => {
      if (!response.complete) dropped();
    });
  }

  /** What has come so far, for an attempt that ended before the answer did. */
  partial(): Pick<DeliveryResult, 'status' | 'answer' | 'cut'> {
    return { ...(this.status !== undefined && { status: this.status }), answer: this.text(), cut: this.cut };
  }

  private judged(): Outcome {
    const status = this.status ?? 0;
    const outcome = { ok: status >= 200 && status < 300, ...this.partial() };
    if (status >= 300 && status < 400) return { ...outcome, error: 'redirect', detail: `answered ${status}; redirects are not followed` };
    return outcome;
  }

  private keep(bytes: Buffer): void {
    const room = ANSWER_CHARS * 4 - this.keptBytes;
    if (room <= 0 || bytes.length === 0) return;
    const part = bytes.subarray(0, room);
    this.kept.push(part);
    this.keptBytes += part.length;
  }

  private text(): string {
    const text = new TextDecoder().decode(Buffer.concat(this.kept)).slice(0, ANSWER_CHARS);
    // Not half a surrogate pair: the text is stored, and a lone surrogate is no valid UTF-8.
    return /[\uD800-\uDBFF]$/.test(text) ? text.slice(0, -1) : text;
  }
}
