import type http from 'node:http';
import type https from 'node:https';
import { TLSSocket } from 'node:tls';
import { FSPIOP_ENDPOINT_TYPES, THIRDPARTY_ENDPOINT_TYPES } from '../../activities/shared/contracts/endpoints';
import { serveLocally } from './http';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  /** The body exactly as it arrived. */
  raw: string;
  /** Over mutual TLS: the subject CN of the client certificate its sender showed. */
  clientCertificate?: string;
}

export type Reaction = (request: ReceivedRequest) => void | Promise<void>;

/**
 * A simulated DFSP: a real HTTP server that acknowledges what the switch sends (202 for requests,
 * 200 for callbacks), records it, and runs an optional reaction (for example answering a POST /transfers).
 */
export class SimulatedDfsp {
  readonly received: ReceivedRequest[] = [];
  private reaction?: Reaction;
  private waiters: Array<{ predicate: (r: ReceivedRequest) => boolean; resolve: (r: ReceivedRequest) => void }> = [];
  /** Status the server answers with; a test may set 500 to make the switch retry. */
  status?: number;

  private constructor(
    readonly name: string,
    private readonly server: http.Server | https.Server,
    readonly url: string,
  ) {}

  /** With `tls`, it serves HTTPS, as a DFSP's connector does in a scheme with mutual TLS. */
  static async start(name: string, tls?: https.ServerOptions): Promise<SimulatedDfsp> {
    let dfsp: SimulatedDfsp | undefined;
    const { server, port } = await serveLocally((req, bytes, res) => {
      const text = bytes.toString('utf-8');
      const request: ReceivedRequest = { method: req.method!, path: req.url!, headers: req.headers, body: text ? JSON.parse(text) : undefined, raw: text };
      if (req.socket instanceof TLSSocket) request.clientCertificate = String(req.socket.getPeerCertificate().subject?.CN);
      const status = dfsp!.status ?? (req.method === 'PUT' || req.method === 'PATCH' ? 200 : 202);
      res.writeHead(status).end();
      if (status >= 400) return;
      dfsp!.received.push(request);
      dfsp!.waiters = dfsp!.waiters.filter((waiter) => {
        if (!waiter.predicate(request)) return true;
        waiter.resolve(request);
        return false;
      });
      void Promise.resolve(dfsp!.reaction?.(request)).catch((error) => console.error(`${name} reaction failed`, error));
    }, tls);
    dfsp = new SimulatedDfsp(name, server, `${tls ? 'https' : 'http'}://127.0.0.1:${port}`);
    return dfsp;
  }

  react(reaction: Reaction | undefined): void {
    this.reaction = reaction;
  }

  /** The first request (already received or still to come) that matches. */
  waitFor(predicate: (request: ReceivedRequest) => boolean, timeoutMs = 15_000, what = 'request'): Promise<ReceivedRequest> {
    const seen = this.received.find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name} received no matching ${what} within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        predicate,
        resolve: (request) => {
          clearTimeout(timer);
          resolve(request);
        },
      });
    });
  }

  /** Every endpoint type, pointing at this server with the paths a Mojaloop DFSP registers. */
  endpoints(): Array<{ type: string; value: string }> {
    return mojaloopEndpoints(this.url);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Every endpoint type at `u`, with the paths Mojaloop's onboarding registers for a DFSP, PISP included; the third-party
 * ones at `tp` where a participant serves the two APIs apart (an sdk-scheme-adapter beside a thirdparty-sdk).
 */
export function mojaloopEndpoints(u: string, tp = u): Array<{ type: string; value: string }> {
  const values: Record<string, string> = {
    FSPIOP_CALLBACK_URL_PARTIES_GET: `${u}/parties/{{partyIdType}}/{{partyIdentifier}}`,
    FSPIOP_CALLBACK_URL_PARTIES_PUT: `${u}/parties/{{partyIdType}}/{{partyIdentifier}}`,
    FSPIOP_CALLBACK_URL_PARTIES_PUT_ERROR: `${u}/parties/{{partyIdType}}/{{partyIdentifier}}/error`,
    FSPIOP_CALLBACK_URL_PARTIES_SUB_ID_GET: `${u}/parties/{{partyIdType}}/{{partyIdentifier}}/{{partySubIdOrType}}`,
    FSPIOP_CALLBACK_URL_PARTIES_SUB_ID_PUT: `${u}/parties/{{partyIdType}}/{{partyIdentifier}}/{{partySubIdOrType}}`,
    FSPIOP_CALLBACK_URL_PARTIES_SUB_ID_PUT_ERROR: `${u}/parties/{{partyIdType}}/{{partyIdentifier}}/{{partySubIdOrType}}/error`,
    FSPIOP_CALLBACK_URL_PARTICIPANT_PUT: `${u}/participants/{{partyIdType}}/{{partyIdentifier}}`,
    FSPIOP_CALLBACK_URL_PARTICIPANT_PUT_ERROR: `${u}/participants/{{partyIdType}}/{{partyIdentifier}}/error`,
    FSPIOP_CALLBACK_URL_PARTICIPANT_SUB_ID_PUT: `${u}/participants/{{partyIdType}}/{{partyIdentifier}}/{{partySubIdOrType}}`,
    FSPIOP_CALLBACK_URL_PARTICIPANT_SUB_ID_PUT_ERROR: `${u}/participants/{{partyIdType}}/{{partyIdentifier}}/{{partySubIdOrType}}/error`,
    FSPIOP_CALLBACK_URL_PARTICIPANT_SUB_ID_DELETE: `${u}/participants/{{partyIdType}}/{{partyIdentifier}}/{{partySubIdOrType}}`,
    FSPIOP_CALLBACK_URL_PARTICIPANT_BATCH_PUT: `${u}/participants/{{requestId}}`,
    FSPIOP_CALLBACK_URL_PARTICIPANT_BATCH_PUT_ERROR: `${u}/participants/{{requestId}}/error`,
    FSPIOP_CALLBACK_URL_QUOTES: u,
    FSPIOP_CALLBACK_URL_TRX_REQ_SERVICE: u,
    FSPIOP_CALLBACK_URL_AUTHORIZATIONS: u,
    FSPIOP_CALLBACK_URL_TRANSFER_POST: `${u}/transfers`,
    FSPIOP_CALLBACK_URL_TRANSFER_PUT: `${u}/transfers/{{transferId}}`,
    FSPIOP_CALLBACK_URL_TRANSFER_ERROR: `${u}/transfers/{{transferId}}/error`,
    FSPIOP_CALLBACK_URL_BULK_TRANSFER_POST: `${u}/bulkTransfers`,
    FSPIOP_CALLBACK_URL_BULK_TRANSFER_PUT: `${u}/bulkTransfers/{{id}}`,
    FSPIOP_CALLBACK_URL_BULK_TRANSFER_ERROR: `${u}/bulkTransfers/{{id}}/error`,
    FSPIOP_CALLBACK_URL_BULK_QUOTES: u,
  };
  // Mojaloop's third-party onboarding registers every TP_CB_URL_* type as the participant's one base address.
  const thirdparty = THIRDPARTY_ENDPOINT_TYPES.map((type) => ({ type, value: tp }));
  return [...FSPIOP_ENDPOINT_TYPES.filter((type) => values[type]).map((type) => ({ type, value: values[type] })), ...thirdparty];
}

/** The endpoint types a PISP does not register: it takes no consent requests, so the switch does not list it as a DFSP. */
const NOT_FOR_PISPS = new Set(['TP_CB_URL_CONSENT_REQUEST_POST', 'TP_CB_URL_CONSENT_REQUEST_PATCH', 'TP_CB_URL_TRANSACTION_REQUEST_POST']);

/** The endpoints a participant of `role` registers at `u` (the third-party ones at `tp`), as Mojaloop's onboarding does. */
export function endpointsOf(role: 'dfsp' | 'pisp', u: string, tp = u): Array<{ type: string; value: string }> {
  return mojaloopEndpoints(u, tp).filter((endpoint) => role === 'dfsp' || !NOT_FOR_PISPS.has(endpoint.type));
}
