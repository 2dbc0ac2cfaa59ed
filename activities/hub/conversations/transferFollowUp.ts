import type { FspiopEndpointType } from '../../shared/contracts/endpoints';
import { errorInformation, ErrorInformation } from '../../shared/contracts/errors';
import type { TransfersIDPutResponse } from '../../shared/contracts/bodies';
import type { FspiopHeaders } from '../../shared/contracts/messages';
import type { CallbackSender } from '../delivery/callbacks';
import type { TransferRecord } from '../db/switchEntities';
import type { Funds } from '../ledger/funds';
import type { Transfers } from './transfers';

/** central-ledger's words for a transfer it does not know, which Mojaloop's tooling matches exactly. */
const TRANSFER_NOT_FOUND = 'Provided Transfer ID was not found on the server.';

/**
 * What the switch answers about a transfer outside its workflow: GET /transfers/{ID}, a POST repeated
 * after the conversation ended (spec general rule 3), and a payee's PUT arriving after the transfer was
 * decided (for example after expiry). Each answer is read from the transfer's record.
 */
export class TransferFollowUp {
  constructor(
    private readonly transfers: Transfers,
    private readonly funds: Funds,
    private readonly sender: CallbackSender,
  ) {}

  /**
   * GET /transfers/{ID}: the current state, to the payer or payee only. Funds in and out of a DFSP's
   * settlement account are transfers too (as in central-ledger), visible to that DFSP.
   */
  async status(transferId: string, requester: string, version: string): Promise<void> {
    const record = await this.transfers.find(transferId);
    if (record && (requester === record.payerFsp || requester === record.payeeFsp)) return this.put(requester, record, version);
    const movement = record ? undefined : await this.funds.movementFor(transferId, requester);
    if (!movement) return this.error(requester, transferId, version, errorInformation('transferIdNotFound', TRANSFER_NOT_FOUND));
    const body: TransfersIDPutResponse = {
      transferState: movement.state,
      ...(movement.completedDate ? { completedTimestamp: movement.completedDate.toISOString() } : {}),
    };
    await this.send(requester, 'FSPIOP_CALLBACK_URL_TRANSFER_PUT', 'PUT', transferId, body, version);
  }

  /**
   * A POST with the ID of a recorded transfer: resend its outcome if it has one, or 3106 if the body differs; one still
   * in progress is answered when it ends. The requester of the same body is its payer: no one else's POST gets this far
   * (the gateway's and prepare's sender check).
   */
  async repeated(transferId: string, hash: string, requester: string, version: string): Promise<void> {
    const record = await this.transfers.find(transferId);
    if (!record) return this.error(requester, transferId, version, errorInformation('transferIdNotFound', TRANSFER_NOT_FOUND));
    if (record.requestHash !== hash) {
      return this.error(requester, transferId, version, errorInformation('modifiedRequest'));
    }
    if (record.transferState === 'ABORTED') return this.error(requester, transferId, version, storedError(record));
    if (record.transferState === 'COMMITTED') return this.put(requester, record, version);
    // Still RECEIVED after its expiration: nothing will prepare it any more, so it ends now, and the payer hears why.
    const expired = await this.transfers.abortUnprepared(record);
    if (expired) await this.error(requester, transferId, version, expired);
  }

  /**
   * A payee's PUT after the transfer was decided. If it was aborted (expired), the payee gets the error
   * and, if it asked to be notified, PATCH ABORTED. If it was committed, a repeat of the fulfil is answered
   * as central-ledger answers it: the payee gets the transfer's state again (the PATCH, if it asked for
   * one), and a fulfil with another fulfilment is a modified request (3106).
   */
  async lateFulfil(transferId: string, callback: { headers: FspiopHeaders; body: TransfersIDPutResponse }, version: string): Promise<void> {
    const sender = callback.headers['fspiop-source'];
    const record = await this.transfers.find(transferId);
    if (!record || sender !== record.payeeFsp) {
      return this.error(sender, transferId, version, errorInformation('transferIdNotFound', TRANSFER_NOT_FOUND));
    }
    const wantsNotification = callback.body.transferState === 'RESERVED';
    if (record.transferState === 'ABORTED') {
      await this.error(sender, transferId, version, storedError(record));
      if (wantsNotification) await this.patch(record, version);
    } else if (record.transferState === 'COMMITTED') {
      if (callback.body.fulfilment !== record.fulfilment) {
        await this.error(sender, transferId, version, errorInformation('modifiedRequest'));
      } else if (wantsNotification) {
        await this.patch(record, version);
      } else {
        await this.put(sender, record, version);
      }
    }
  }

  private async put(to: string, record: TransferRecord, version: string): Promise<void> {
    const body: TransfersIDPutResponse = {
      transferState: record.transferState,
      ...(record.completedTimestamp ? { completedTimestamp: record.completedTimestamp.toISOString() } : {}),
      ...(record.transferState === 'COMMITTED' && record.fulfilment ? { fulfilment: record.fulfilment } : {}),
      ...(record.transferState === 'ABORTED' && record.errorCode ? { extensionList: { extension: [causeOf(record)] } } : {}),
    };
    await this.send(to, 'FSPIOP_CALLBACK_URL_TRANSFER_PUT', 'PUT', record.transferId, body, version);
  }

  private patch(record: TransferRecord, version: string): Promise<void> {
    const body = { completedTimestamp: (record.completedTimestamp ?? new Date()).toISOString(), transferState: record.transferState };
    return this.send(record.payeeFsp, 'FSPIOP_CALLBACK_URL_TRANSFER_PUT', 'PATCH', record.transferId, body, version);
  }

  private error(to: string, transferId: string, version: string, error: ErrorInformation): Promise<void> {
    return this.sender.sendHubError(to, 'transfers', transferId, version, error);
  }

  /** One attempt: the follow-up runs as an activity, and Temporal's retry policy makes the further ones. */
  private send(to: string, endpointType: FspiopEndpointType, method: 'PUT' | 'PATCH', transferId: string, body: unknown, version: string): Promise<void> {
    return this.sender.send({ to, endpointType, params: { transferId }, method, fromHub: { resource: 'transfers', version }, body });
  }
}

function storedError(record: TransferRecord): ErrorInformation {
  return record.errorCode
    ? { errorCode: record.errorCode, errorDescription: record.errorDescription ?? '' }
    : errorInformation('transferExpired', `transfer ${record.transferId} was aborted`);
}

/**
 * Why an ABORTED transfer was aborted, as central-ledger tells it in the state it answers to GET: an extension `cause`
 * of `<code>: <description>`, cut to the 128 characters an extension value may hold.
 */
function causeOf(record: TransferRecord): { key: string; value: string } {
  return { key: 'cause', value: `${record.errorCode}: ${record.errorDescription ?? ''}`.slice(0, 128) };
}
