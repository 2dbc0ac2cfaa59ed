import crypto from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expirationAt } from '../../activities/shared/contracts/expiry';
import { ulid } from '../helpers/fspiopBodies';
import { jsonOrUndefined, serveLocally } from '../helpers/http';
import type { JwsKeys } from './jws';
import { PEERS_DIR, waitForMessage, type Tapped, type WaitOptions } from './peers';
import { log } from './report';
import { CURRENCY } from './scheme';

/**
 * DFSPs built on Mojaloop's own client code, `@mojaloop/sdk-standard-components` 19.x (pinned in
 * test/interop/peers/package.json), which current Mojaloop DFSPs (sdk-scheme-adapter 24 and later) are made of: its
 * `MojaloopRequests` sends (headers, version, JWS signature, and in ISO mode the ISO 20022 body), its `Jws.validator`
 * checks the signature of every message the hub delivers, its ILPv4 makes the payee's condition and fulfilment, and
 * Mojaloop's header validation (central-services-shared 18.x, which those components bring) checks the headers as the
 * current SDK's inbound server does. npm serves sdk-scheme-adapter 18.0.2 alone (FSPIOP 1.x only) and no newer one is
 * built here, so the peer is a small HTTP server around those components, answering as a payee DFSP does.
 */

/** The API a peer speaks: FSPIOP, or Mojaloop's ISO 20022 form of it (the hub must then run with API_TYPE=iso20022). */
export type ApiType = 'fspiop' | 'iso20022';

/** The FSPIOP version a peer sends, and the Accept versions it names (both forms Mojaloop allows, major alone and major.minor). */
const SPOKEN = {
  '1.1': { content: '1.1', accept: { parties: '1', participants: '1', quotes: '1', transfers: '1' } },
  '2.0': { content: '2.0', accept: { parties: '2', participants: '2', quotes: '2.0', transfers: '2.0' } },
} as const;
export type Version = keyof typeof SPOKEN;

/** The resources the peers use; those Mojaloop has an ISO 20022 form of (the rest stay FSPIOP in ISO mode too). */
const RESOURCES = ['parties', 'participants', 'quotes', 'transfers'] as const;
const ISO_RESOURCES = new Set(['parties', 'quotes', 'transfers']);

type Module = any;

const fromPeers = createRequire(path.join(PEERS_DIR, 'package.json'));
/** The modules the 19.x components themselves load (their own copies, where npm nested them). */
const besideComponents = () => createRequire(fromPeers.resolve('@mojaloop/sdk-standard-components'));
const standardComponents = (): Module => fromPeers('@mojaloop/sdk-standard-components');
const headerValidation = (): Module =>
  createRequire(besideComponents().resolve('@mojaloop/ml-schema-transformer-lib'))('@mojaloop/central-services-shared/src/util/headerValidation');
const isoTransforms = (): Module => besideComponents()('@mojaloop/ml-schema-transformer-lib').TransformFacades;

/** The components' logger, quiet but for warnings and errors, which go to the suite's log (stderr). */
function peerLogger(name: string): Module {
  const say = (level: string) => (message: string, meta?: unknown) =>
    log(`${name} ${level}: ${message}${meta === undefined ? '' : ` ${meta instanceof Error ? meta.message : JSON.stringify(meta)}`}`);
  const logger: Module = {
    isDebugEnabled: false,
    isVerboseEnabled: false,
    isInfoEnabled: false,
    isWarnEnabled: true,
    isErrorEnabled: true,
    child: () => logger,
    push: () => logger,
    log: () => undefined,
    debug: () => undefined,
    verbose: () => undefined,
    info: () => undefined,
    warn: say('warn'),
    error: say('error'),
  };
  return logger;
}

/** Every participant's public key by name, as the run's keys directory holds them (`<fspId>.pem`). */
function validationKeys(directory: string): Record<string, string> {
  return Object.fromEntries(
    fs
      .readdirSync(directory)
      .filter((file) => file.endsWith('.pem'))
      .map((file) => [path.basename(file, '.pem'), fs.readFileSync(path.join(directory, file), 'utf-8')]),
  );
}

/** A customer a payee peer holds. */
export interface Customer {
  id: string;
  firstName: string;
  lastName: string;
}

/** What a payee answers a transfer with: COMMITTED, or RESERVED (asking the hub for a PATCH with the outcome). */
export type Fulfil = 'COMMITTED' | 'RESERVED';

export interface StandardPeerOptions {
  name: string;
  switchUrl: string;
  jws?: JwsKeys;
  version: Version;
  apiType?: ApiType;
  fulfil?: Fulfil;
}

/**
 * A DFSP on Mojaloop's standard components: a payer driven by the suite, and a payee answering the hub by itself.
 * `received` is every message the hub delivered, with the peer's answer; one whose headers or signature Mojaloop's
 * checks refuse is answered as the SDK answers it (400 or 406 with ErrorInformation) and its `answer` says why.
 */
export class StandardPeer {
  readonly received: Tapped[] = [];
  readonly customers = new Map<string, Customer>();
  readonly apiType: ApiType;
  private readonly requests: Module;
  private readonly validator?: Module;
  private readonly ilp: Module;
  private readonly fulfil: Fulfil;

  private constructor(
    readonly name: string,
    readonly version: Version,
    private readonly server: http.Server,
    readonly port: number,
    options: StandardPeerOptions,
  ) {
    const { MojaloopRequests, Jws, Ilp } = standardComponents();
    const logger = peerLogger(name);
    this.apiType = options.apiType ?? 'fspiop';
    this.fulfil = options.fulfil ?? 'COMMITTED';
    const spoken = SPOKEN[version];
    this.requests = new MojaloopRequests({
      logger,
      dfspId: name,
      peerEndpoint: new URL(options.switchUrl).host,
      tls: { enabled: false },
      apiType: this.apiType,
      jwsSign: options.jws !== undefined,
      jwsSignPutParties: options.jws !== undefined,
      jwsSigningKey: options.jws && fs.readFileSync(options.jws.signingKeyPath(name), 'utf-8'),
      resourceVersions: Object.fromEntries(RESOURCES.map((resource) => [resource, { contentVersion: spoken.content, acceptVersion: spoken.accept[resource] }])),
      // One try: a message sent twice would be a test of the hub's repeats, which this suite does elsewhere.
      retryConfig: { retries: 0 },
    });
    this.validator = options.jws && new Jws.validator({ logger, validationKeys: validationKeys(options.jws.verificationKeysDirectory) });
    this.ilp = Ilp.ilpFactory(Ilp.ILP_VERSIONS.v4, { secret: `secret-of-${name}`, logger });
  }

  static async start(options: StandardPeerOptions): Promise<StandardPeer> {
    let peer: StandardPeer | undefined;
    const { server, port } = await serveLocally((request, raw, response) => peer!.take(request, raw.toString('utf-8'), response));
    peer = new StandardPeer(options.name, options.version, server, port, options);
    return peer;
  }

  /** A new transaction, quote or transfer ID in the form this peer's version generates: a ULID in 2.0, a UUID in 1.x. */
  newId(): string {
    return this.version === '2.0' ? ulid() : crypto.randomUUID();
  }

  waitFor(predicate: (message: Tapped) => boolean, options?: WaitOptions): Promise<Tapped | undefined> {
    return waitForMessage(this.received, predicate, options);
  }

  /** The messages the peer refused: headers or a signature Mojaloop's checks do not pass. */
  refused(since = 0): Tapped[] {
    return this.received.slice(since).filter((message) => message.status >= 400);
  }

  /**
   * Registers a customer in the hub's account lookup as a DFSP does with MojaloopRequests (POST /participants, its
   * requestId in this peer's ID form); the hub's answer, PUT /participants/{requestId}.
   */
  async register(customer: Customer): Promise<Tapped | undefined> {
    this.customers.set(customer.id, customer);
    const [requestId, since] = [this.newId(), this.received.length];
    const partyList = [{ partyIdType: 'MSISDN', partyIdentifier: customer.id, fspId: this.name }];
    await this.requests.postParticipants({ requestId, partyList, currency: CURRENCY });
    return this.waitFor((m) => m.method === 'PUT' && m.path.startsWith(`/participants/${requestId}`), { since });
  }

  /** GET /parties/MSISDN/{id}; the PUT /parties (or its error) the hub delivers back. */
  async lookup(id: string): Promise<Tapped | undefined> {
    const since = this.received.length;
    await this.requests.getParties('MSISDN', id);
    return this.waitFor((m) => m.method === 'PUT' && m.path.startsWith(`/parties/MSISDN/${id}`), { since });
  }

  /** POST /quotes for `amount` from `payerId` here to `payeeId` at `payeeFsp` (new IDs in this peer's form); the PUT /quotes back. */
  async quote(payerId: string, payeeFsp: string, payeeId: string, amount: string): Promise<{ request: any; answer?: Tapped }> {
    const request = {
      quoteId: this.newId(),
      transactionId: this.newId(),
      payee: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: payeeId, fspId: payeeFsp } },
      payer: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: payerId, fspId: this.name } },
      amountType: 'SEND',
      amount: { amount, currency: CURRENCY },
      transactionType: { scenario: 'TRANSFER', initiator: 'PAYER', initiatorType: 'CONSUMER' },
    };
    const since = this.received.length;
    await this.requests.postQuotes(request, payeeFsp);
    return { request, answer: await this.waitFor((m) => m.method === 'PUT' && m.path.startsWith(`/quotes/${request.quoteId}`), { since }) };
  }

  /** POST /transfers of an accepted quote (the transfer's ID is the quote's transactionId, as Mojaloop's SDK makes it); the PUT /transfers back. */
  async transfer(quote: { request: any; answer: Tapped }, payeeFsp: string): Promise<{ prepare: any; answer?: Tapped }> {
    const terms = await this.read(quote.answer);
    const prepare = {
      transferId: quote.request.transactionId,
      payerFsp: this.name,
      payeeFsp,
      amount: terms.transferAmount,
      ilpPacket: terms.ilpPacket,
      condition: terms.condition,
      expiration: expirationAt(Date.now() + 60_000),
    };
    const since = this.received.length;
    const context = this.apiTypeOf('transfers') === 'fspiop' ? {} : { isoPostQuoteResponse: quote.answer.body };
    await this.requests.postTransfers(prepare, payeeFsp, {}, context);
    return { prepare, answer: await this.waitFor((m) => m.method === 'PUT' && m.path.startsWith(`/transfers/${prepare.transferId}`), { since }) };
  }

  /** Whether a fulfilment satisfies a condition, by Mojaloop's ILP code. */
  fulfils(fulfilment: string, condition: string): boolean {
    return this.ilp.validateFulfil(fulfilment, condition);
  }

  /** A delivered message's body in FSPIOP form (an ISO 20022 one read with Mojaloop's transformer). */
  read(message: Tapped): Promise<any> {
    const resource = message.path.split(/[/?]/)[1];
    return this.fspiopBody(resource, `${message.method.toLowerCase()}${message.path.endsWith('/error') ? 'Error' : ''}`, message.body);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private apiTypeOf(resource: string): ApiType {
    return ISO_RESOURCES.has(resource) ? this.apiType : 'fspiop';
  }

  /** Why Mojaloop's checks refuse a delivered message (status and words), or undefined when they pass it. */
  private problemWith(resource: string, headers: Record<string, string>, body: unknown): { status: number; code: string; why: string } | undefined {
    const { parseContentTypeHeader, parseAcceptHeader, protocolVersions } = headerValidation();
    // What the current SDK's inbound server takes: every 1.x and 2.x version (central-services-shared 18.x defaults).
    const supported: unknown[] = [...protocolVersions.ONE, ...protocolVersions.TWO, protocolVersions.anyVersion];
    const contentType = parseContentTypeHeader(resource, headers['content-type'] ?? '', this.apiTypeOf(resource));
    if (!contentType.valid) return { status: 400, code: '3101', why: `invalid Content-Type ${headers['content-type']}` };
    if (!supported.includes(contentType.version)) return { status: 406, code: '3001', why: `unsupported Content-Type version ${contentType.version}` };
    if (headers.accept !== undefined) {
      const accept = parseAcceptHeader(resource, headers.accept, this.apiTypeOf(resource));
      if (!accept.valid) return { status: 400, code: '3101', why: `invalid Accept ${headers.accept}` };
      if (!supported.some((version) => accept.versions.has(version))) return { status: 406, code: '3001', why: `unsupported Accept ${headers.accept}` };
    }
    if (this.validator && body !== undefined) {
      try {
        this.validator.validate({ headers, body });
      } catch (error) {
        return { status: 400, code: '3105', why: `invalid signature: ${(error as Error).message}` };
      }
    }
    return undefined;
  }

  private take(request: http.IncomingMessage, raw: string, response: http.ServerResponse): void {
    const [method, urlPath] = [request.method!, request.url!];
    const headers = request.headers as Record<string, string>;
    const body = jsonOrUndefined(raw);
    const resource = urlPath.split(/[/?]/)[1];
    const problem = this.problemWith(resource, headers, body);
    const status = problem?.status ?? (method === 'PUT' || method === 'PATCH' ? 200 : 202);
    const answer = problem ? JSON.stringify({ errorInformation: { errorCode: problem.code, errorDescription: problem.why } }) : '';
    this.received.push({ method, path: urlPath, headers, raw, body, status, answer });
    response.writeHead(status, problem ? { 'content-type': 'application/json' } : {}).end(answer);
    if (!problem && (method === 'GET' || method === 'POST')) {
      this.answer(method, urlPath, headers['fspiop-source'], body).catch((error: Error) =>
        log(`${this.name}: answering ${method} ${urlPath} failed: ${error.message}`),
      );
    }
  }

  /**
   * A body in FSPIOP form: an ISO 20022 one read with Mojaloop's transformer, as the current SDK reads it; `action` is
   * the transformer's name for the message (post, put, putError, patch).
   */
  private async fspiopBody(resource: string, action: string, body: any): Promise<any> {
    if (this.apiTypeOf(resource) === 'fspiop') return body;
    return (await isoTransforms().FSPIOPISO20022[resource][action]({ body })).body;
  }

  /** The payee's side of a lookup, a quote and a transfer, sent back through the hub to `source` with MojaloopRequests. */
  private async answer(method: string, urlPath: string, source: string, body: any): Promise<void> {
    const party = /^\/parties\/([^/]+)\/([^/?]+)$/.exec(urlPath);
    if (method === 'GET' && party) return this.answerParty(party[1], party[2], source);
    if (method === 'POST' && urlPath === '/quotes') return this.answerQuote(await this.fspiopBody('quotes', 'post', body), body, source);
    if (method === 'POST' && urlPath === '/transfers') return this.answerTransfer(await this.fspiopBody('transfers', 'post', body), source);
  }

  private async answerParty(idType: string, id: string, source: string): Promise<void> {
    const customer = this.customers.get(id);
    if (!customer) {
      await this.requests.putPartiesError(idType, id, undefined, { errorInformation: { errorCode: '3204', errorDescription: 'Party not found' } }, source);
      return;
    }
    const party = {
      partyIdInfo: { partyIdType: idType, partyIdentifier: id, fspId: this.name },
      name: `${customer.firstName} ${customer.lastName}`,
      personalInfo: { complexName: { firstName: customer.firstName, lastName: customer.lastName }, dateOfBirth: '1990-01-01' },
      // A field FSPIOP 2.0 added: a 1.1 peer does not send it.
      ...(this.version === '2.0' && { supportedCurrencies: [CURRENCY] }),
    };
    await this.requests.putParties(idType, id, undefined, { party }, source);
  }

  /** Quotes the amount asked (no fee), with the condition of Mojaloop's ILPv4 packet of the agreed transaction. */
  private async answerQuote(quoteRequest: any, asSent: unknown, source: string): Promise<void> {
    const terms = { transferAmount: quoteRequest.amount, payeeReceiveAmount: quoteRequest.amount, expiration: expirationAt(Date.now() + 60_000) };
    const { ilpPacket, condition } = this.ilp.getQuoteResponseIlp(quoteRequest, terms);
    const context = this.apiTypeOf('quotes') === 'fspiop' ? undefined : { isoPostQuote: asSent };
    await this.requests.putQuotes(quoteRequest.quoteId, { ...terms, ilpPacket, condition }, source, undefined, context);
  }

  /** Fulfils a transfer whose condition is the one its ILP packet's fulfilment satisfies (the payee's own quote). */
  private async answerTransfer(prepare: any, source: string): Promise<void> {
    const fulfilment = this.ilp.calculateFulfil(prepare.ilpPacket);
    if (!this.ilp.validateFulfil(fulfilment, prepare.condition)) {
      await this.requests.putTransfersError(
        prepare.transferId,
        { errorInformation: { errorCode: '5000', errorDescription: 'Payee error: the fulfilment of the ILP packet does not satisfy the condition' } },
        source,
      );
      return;
    }
    await this.requests.putTransfers(prepare.transferId, { fulfilment, completedTimestamp: new Date().toISOString(), transferState: this.fulfil }, source);
  }
}
