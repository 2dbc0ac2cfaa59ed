import { addressOf, MessageKind } from '../../shared/contracts/conversations';
import type { BulkTransfersIDPutResponse } from '../../shared/contracts/bodies';
import { errorInformation, ErrorInformation } from '../../shared/contracts/errors';
import type { CallbackSender } from '../delivery/callbacks';
import type { BulkTransferRecord } from '../db/switchEntities';
import type { BulkParty, BulkTransfers } from './bulkTransfers';

/**
 * The messages the switch makes itself about a bulk transfer, each read from its record: the POST to the payee,
 * the per-item results to payer and payee, and the answers outside the bulk's workflow (GET /bulkTransfers/{ID},
 * a POST repeated after the bulk ended, a payee's callback after that). Every one is sent with FSPIOP-Source = the
 * hub, as Mojaloop's bulk-api-adapter sends them.
 */
export class BulkTransferFollowUp {
  constructor(
    private readonly bulks: BulkTransfers,
    private readonly sender: CallbackSender,
  ) {}

  /** POST /bulkTransfers to the payee with the items the hub accepted (central-ledger's bulk processing handler). */
  async forward(bulkTransferId: string, version: string): Promise<void> {
    const bulk = await this.get(bulkTransferId);
    await this.send(bulk.payeeFsp, 'request', bulk.bulkTransferId, version, await this.bulks.payeeRequest(bulk));
  }

  /** PUT /bulkTransfers/{ID} with the bulk's state and its items' results as `party` sees them. */
  async results(bulkTransferId: string, party: BulkParty, version: string): Promise<void> {
    const bulk = await this.get(bulkTransferId);
    await this.put(party === 'payer' ? bulk.payerFsp : bulk.payeeFsp, bulk, party, version);
  }

  /**
   * GET /bulkTransfers/{ID}: the state and results to the payer or payee; anyone else gets 3000, as from
   * central-ledger's bulk get handler, and an unknown bulk 3210.
   */
  async status(bulkTransferId: string, requester: string, version: string): Promise<void> {
    const bulk = await this.bulks.find(bulkTransferId);
    if (!bulk) return this.error(requester, bulkTransferId, version, errorInformation('bulkTransferIdNotFound', `bulk transfer ${bulkTransferId} not found`));
    const party = partyOf(bulk, requester);
    if (!party)
      return this.error(requester, bulkTransferId, version, errorInformation('clientError', `${requester} is neither payer nor payee of this bulk transfer`));
    await this.put(requester, bulk, party, version);
  }

  /**
   * A POST with the ID of a recorded bulk: its final answer again if it has one, or 3106 if the body differs. The
   * requester of the same body is its payer: no one else's POST gets this far (the gateway's and prepare's sender check).
   */
  async repeated(bulkTransferId: string, hash: string, requester: string, version: string): Promise<void> {
    const bulk = await this.bulks.find(bulkTransferId);
    if (!bulk) return this.error(requester, bulkTransferId, version, errorInformation('bulkTransferIdNotFound', `bulk transfer ${bulkTransferId} not found`));
    if (bulk.requestHash !== hash) {
      return this.error(requester, bulkTransferId, version, errorInformation('modifiedRequest'));
    }
    if (bulk.errorCode) return this.error(requester, bulkTransferId, version, { errorCode: bulk.errorCode, errorDescription: bulk.errorDescription ?? '' });
    if (bulk.bulkTransferState === 'COMPLETED' || bulk.bulkTransferState === 'REJECTED') await this.put(requester, bulk, 'payer', version);
  }

  private async put(to: string, bulk: BulkTransferRecord, party: BulkParty, version: string): Promise<void> {
    const results = await this.bulks.results(bulk, party);
    const body: BulkTransfersIDPutResponse = {
      bulkTransferState: bulk.bulkTransferState,
      ...(bulk.completedTimestamp ? { completedTimestamp: bulk.completedTimestamp.toISOString() } : {}),
      ...(results.length > 0 ? { individualTransferResults: results } : {}),
    };
    await this.send(to, 'answer', bulk.bulkTransferId, version, body);
  }

  private error(to: string, bulkTransferId: string, version: string, error: ErrorInformation): Promise<void> {
    return this.sender.sendHubError(to, 'bulkTransfers', bulkTransferId, version, error);
  }

  private async get(bulkTransferId: string): Promise<BulkTransferRecord> {
    const bulk = await this.bulks.find(bulkTransferId);
    if (!bulk) throw new Error(`bulk transfer ${bulkTransferId} has no record`);
    return bulk;
  }

  /** One attempt: the caller runs as an activity, and Temporal's retry policy makes the further ones. */
  private send(to: string, kind: MessageKind, bulkTransferId: string, version: string, body: unknown): Promise<void> {
    const address = addressOf('bulkTransfers', kind, bulkTransferId);
    const method = kind === 'request' ? 'POST' : 'PUT';
    return this.sender.send({ to, ...address, method, fromHub: { resource: 'bulkTransfers', version }, body });
  }
}

function partyOf(bulk: BulkTransferRecord, fsp: string): BulkParty | undefined {
  if (fsp === bulk.payerFsp) return 'payer';
  return fsp === bulk.payeeFsp ? 'payee' : undefined;
}
