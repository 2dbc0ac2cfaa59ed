import { deserializeEnvelope, deserializeIlpPayment, deserializeIlpPrepare, Type } from 'ilp-packet';
import type { Database } from '../db/database';
import { TransferRecord } from '../db/switchEntities';
import { HubError } from '../../shared/platform/hubError';

/**
 * The transaction a transfer carries: the JSON object the payee FSP put, base64url-encoded, in the data of the
 * transfer's ILP packet (Document 2, "ILP Packet"). Central-ledger's admin API shows it as GET /transactions/{id};
 * packets of ILP v1 (payment) and v4 (prepare) are read, as Mojaloop DFSPs make either.
 */
export class TransactionDetails {
  constructor(private readonly db: Database) {}

  async of(transferId: string): Promise<unknown> {
    const record = await this.db.read((manager) => manager.findOneBy(TransferRecord, { transferId }));
    if (!record) throw new HubError('idNotFound', `transfer ${transferId} not found`);
    const transaction = record.ilpPacket ? transactionIn(record.ilpPacket) : undefined;
    if (transaction === undefined) throw new HubError('idNotFound', `transfer ${transferId} carries no transaction in its ILP packet`);
    return transaction;
  }
}

/** The transaction object in an ILP packet, or undefined when the packet holds none that can be read. */
export function transactionIn(ilpPacket: string): unknown {
  try {
    const binary = Buffer.from(ilpPacket, 'base64');
    const { type } = deserializeEnvelope(binary);
    const data =
      type === Type.TYPE_ILP_PAYMENT ? deserializeIlpPayment(binary).data : type === Type.TYPE_ILP_PREPARE ? deserializeIlpPrepare(binary).data : undefined;
    return data && JSON.parse(Buffer.from(data.toString('utf-8'), 'base64url').toString('utf-8'));
  } catch {
    return undefined;
  }
}
