import type { TransactionRequestsIDPutResponse } from '../../shared/contracts/bodies';
import { addressOf } from '../../shared/contracts/conversations';
import { errorInformation } from '../../shared/contracts/errors';
import type { Requester } from '../../shared/contracts/followUps';
import type { ReceivedCallback } from '../../shared/contracts/messages';
import type { CallbackSender } from '../delivery/callbacks';
import type { Routing } from '../delivery/routing';
import type { TransactionRequestRecord } from '../db/switchEntities';
import type { RecordedAnswers, RecordedConversation } from './recordedAnswers';
import type { TransactionRequests } from './transactionRequests';

const resource = 'transactionRequests';

/**
 * What the switch answers about a transaction request outside its workflow: GET /transactionRequests/{ID}, a POST
 * repeated after the conversation ended (spec general rule 3), and a payer FSP's answer after it ended. Each runs as
 * an activity and sends once; Temporal's retry policy makes the further attempts.
 */
export class TransactionRequestFollowUp {
  constructor(
    private readonly requests: TransactionRequests,
    private readonly routing: Routing,
    private readonly sender: CallbackSender,
    private readonly answers: RecordedAnswers,
  ) {}

  /**
   * GET /transactionRequests/{ID}: the requester gets the last answer again, or, while there is none, the GET goes to
   * the payer FSP, which answers it. A request the switch does not know is passed to FSPIOP-Destination, as by
   * Mojaloop's hub; one it keeps for another FSP, or no longer keeps (retention), is 3206.
   */
  async get(transactionRequestId: string, requester: Requester): Promise<void> {
    const record = await this.requests.find(transactionRequestId);
    if (!record && requester.destination) return this.routing.route({ kind: 'routed', resource, id: transactionRequestId, message: 'get', from: requester });
    if (record && record.payeeFsp === requester.source && this.requests.isKept(record)) {
      if (record.responseBody) return this.resend(record, requester.version);
      if (record.payerFsp) {
        const toPayer = { ...requester, destination: record.payerFsp };
        return this.routing.route({ kind: 'routed', resource, id: transactionRequestId, message: 'get', from: toPayer });
      }
    }
    return this.answers.notFound(conversation(transactionRequestId), requester);
  }

  /** A POST with the ID of a transaction request whose conversation ended: the last answer again, or 3106 for another body. */
  async repeated(transactionRequestId: string, hash: string, requester: Requester): Promise<void> {
    const record = await this.requests.find(transactionRequestId);
    await this.answers.repeated(conversation(transactionRequestId), record, hash, requester, () => this.resend(record!, requester.version));
  }

  /**
   * The payer FSP's PUT after the conversation's workflow ended (a REJECTED after too many wrong OTPs): passed to the
   * requester and kept as the last answer, unless the request expired, which the payer FSP is then told (3301).
   * A PUT from anyone else goes where its sender addressed it, as Mojaloop's hub passes every one on.
   */
  async lateAnswer(transactionRequestId: string, isError: boolean, callback: ReceivedCallback<unknown>, version: string): Promise<void> {
    const from = callback.headers['fspiop-source'];
    const record = await this.requests.find(transactionRequestId);
    if (!record || record.payerFsp !== from) {
      const sender: Requester = { source: from, destination: callback.headers['fspiop-destination'], version, headers: callback.headers };
      const message = isError ? 'error' : 'answer';
      return this.routing.route({ kind: 'routed', resource, id: transactionRequestId, message, from: sender, rawBody: callback.rawBody });
    }
    if (record.state === 'EXPIRED') {
      const expired = errorInformation('transactionRequestExpired', `transaction request ${transactionRequestId} has expired`);
      return this.sender.sendHubError(from, resource, transactionRequestId, version, expired);
    }
    const state = isError ? 'ERROR' : (callback.body as TransactionRequestsIDPutResponse).transactionRequestState;
    await this.requests.answered({ transactionRequestId, requestHash: record.requestHash, state, headers: callback.headers, body: callback.rawBody });
    await this.sender.send({
      to: record.payeeFsp,
      ...addressOf(resource, isError ? 'error' : 'answer', transactionRequestId),
      method: 'PUT',
      headers: callback.headers,
      rawBody: callback.rawBody,
    });
  }

  /** The last answer to the requester again; ERROR and EXPIRED are error callbacks (the payer's or the hub's own). */
  private resend(record: TransactionRequestRecord, version: string): Promise<void> {
    const isError = record.state === 'ERROR' || record.state === 'EXPIRED';
    return this.answers.resend(conversation(record.transactionRequestId), record.payeeFsp, record, isError, version);
  }
}

function conversation(id: string): RecordedConversation {
  return { resource, id, noun: 'transaction request', idNotFound: 'transactionRequestIdNotFound' };
}
