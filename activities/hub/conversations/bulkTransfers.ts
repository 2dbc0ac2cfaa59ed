import { EntityManager, In, IsNull } from 'typeorm';
import type { BulkTransferState, BulkTransfersPostRequest, IndividualTransfer, IndividualTransferResult } from '../../shared/contracts/bodies';
import { errorInformation, ErrorInformation } from '../../shared/contracts/errors';
import { instantOf } from '../../shared/contracts/expiry';
import { chunks, insertRows } from '../db/batches';
import { formatAmount } from '../db/money';
import { BulkTransferItem, BulkTransferRecord, TransferRecord } from '../db/switchEntities';
import type { Movement, Reservation } from '../ledger/ledger';
import type { HubServices } from '../hubServices';
import { HubError } from '../../shared/platform/hubError';
import { activeParticipant, checkAmount, checkRequest, checkSender, transferAccounts, TransferAccounts } from './prepareChecks';
import { conditionOf, errorColumns, finishIn } from './transfers';
import { countDecided, countOutcomes } from '../metrics/schemeCounters';

export interface PrepareBulkInput {
  body: BulkTransfersPostRequest;
  source: string;
  /** FSPIOP-Destination, which central-ledger checks as it checks the body's payee (absent in runs begun before it was passed). */
  destination?: string;
  requestHash: string;
}

/**
 * How prepare left the bulk: `accepted` items reserved (possibly none), or `repeat`: decided long ago (its workflow
 * history is gone, its record is not), so the caller answers it as a repeated request instead.
 */
export type BulkPrepared = { outcome: 'prepared'; accepted: number; hubId: string } | { outcome: 'repeat'; bulkTransferState: BulkTransferState };

/** One item's answer in the payee's PUT /bulkTransfers/{ID}. */
export type ItemResult = Pick<IndividualTransferResult, 'transferId' | 'fulfilment' | 'errorInformation'>;

/** Whose view of a bulk: the payer sees every item, the payee only those sent to it. */
export type BulkParty = 'payer' | 'payee';

/** Items committed or released per ledger step: one transaction each, short enough not to hold the payer's position lock for long. */
const RESOLVE_BATCH = 250;

/** What prepare decided for one item before the ledger step: the movement to reserve, or why it is refused. */
interface PlannedItem {
  item: IndividualTransfer;
  refusal?: ErrorInformation;
  /** False when the transferId is not this item's (repeated in the bulk, or another transfer's): no record of its own. */
  own: boolean;
}

/** An item's decision from the payee's answer (or the lack of one). */
interface Decision {
  transferId: string;
  fulfilment?: string;
  errorInformation?: ErrorInformation;
}

/**
 * A bulk transfer's ledger and record steps (central-ledger's bulk prepare, fulfil and timeout handlers). Each item
 * is an individual transfer: a `TransferRecord` and a ledger movement of its own, checked and reserved as a single
 * transfer is, but all of a bulk's items in one ledger step, and committed or released in batches. Every step is idempotent.
 */
export class BulkTransfers {
  constructor(private readonly services: HubServices) {}

  /**
   * Checks the sender is the payer (before anything is recorded), records the bulk, checks it as a whole (a failure
   * rejects it: nothing is reserved), then checks each item and reserves those that pass against the payer's Net
   * Debit Cap and liquidity, in order, in one transaction: an item that does not fit is refused (4001, 4200) and the
   * others go on.
   */
  async prepare({ body, source, destination, requestHash }: PrepareBulkInput): Promise<BulkPrepared> {
    const { db, ledger, participants } = this.services;
    checkSender(source, body.payerFsp, 'bulk');
    const bulk = await this.record(body, requestHash);
    if (bulk.bulkTransferState === 'COMPLETED' || bulk.bulkTransferState === 'REJECTED')
      return { outcome: 'repeat', bulkTransferState: bulk.bulkTransferState };
    // The bulk turns ACCEPTED in the reservations' own transaction: a retried step that finds it so re-checks nothing.
    if (bulk.bulkTransferState !== 'RECEIVED')
      return { outcome: 'prepared', accepted: await this.countAccepted(bulk.bulkTransferId), hubId: participants.hubName };
    let planned: PlannedItem[];
    let movements: Movement[];
    try {
      ({ planned, movements } = await db.read((manager) => this.plan(manager, body, destination)));
    } catch (error) {
      if (error instanceof HubError) await this.reject(body.bulkTransferId, error.errorInformation);
      throw error;
    }
    const reservations = await ledger.reserveEach(movements, {
      alongside: (manager, reserved) => this.store(manager, bulk, planned, reserved),
    });
    return { outcome: 'prepared', accepted: reservations.filter((r) => 'reserved' in r).length, hubId: participants.hubName };
  }

  /**
   * The payee's answers: a fulfilment that hashes to its own item's condition commits that item, unless the item
   * has expired by the time the ledger resolves it (3303, as central-ledger's fulfil handler refuses each of a bulk's
   * late commits); any other answer releases it (an invalid fulfilment with 3100, the payee's error with that
   * error). Items the payee left out stay reserved; `open` counts them.
   */
  async fulfil(input: { bulkTransferId: string; results: ItemResult[] }): Promise<{ open: number }> {
    const open = await this.openItems(input.bulkTransferId);
    const decisions = new Map<string, Decision>();
    for (const result of input.results) {
      const record = open.get(result.transferId);
      if (record && !decisions.has(result.transferId)) decisions.set(result.transferId, decide(record, result));
    }
    await this.resolve(input.bulkTransferId, [...decisions.values()]);
    return { open: open.size - decisions.size };
  }

  /** Releases every item still reserved, each with `errorInformation` (expiry, the payee's error for the whole bulk). */
  async releaseOpen(input: { bulkTransferId: string; errorInformation: ErrorInformation }): Promise<void> {
    const open = await this.openItems(input.bulkTransferId);
    await this.resolve(
      input.bulkTransferId,
      [...open.keys()].map((transferId) => ({ transferId, errorInformation: input.errorInformation })),
    );
  }

  /** Records the bulk's final state; an error is the whole bulk's (a payee's PUT …/error, an unreachable payee). */
  async complete(input: { bulkTransferId: string; state: 'COMPLETED' | 'REJECTED'; errorInformation?: ErrorInformation }): Promise<void> {
    await this.services.db.transaction((manager) =>
      manager.update(
        BulkTransferRecord,
        { bulkTransferId: input.bulkTransferId, bulkTransferState: In(['ACCEPTED', 'PROCESSING']) },
        { bulkTransferState: input.state, completedTimestamp: new Date(), ...errorColumns(input.errorInformation) },
      ),
    );
  }

  find(bulkTransferId: string): Promise<BulkTransferRecord | null> {
    return this.services.db.read((manager) => manager.findOneBy(BulkTransferRecord, { bulkTransferId }));
  }

  /**
   * Each item's outcome as it stands, in the bulk's order: a fulfilment for a committed item, the error for a refused
   * or aborted one, the transferId alone for one still reserved. The payee's view leaves out items it was never sent.
   */
  results(bulk: BulkTransferRecord, party: BulkParty): Promise<IndividualTransferResult[]> {
    return this.services.db.read(async (manager) => {
      const items = await manager.find(BulkTransferItem, { where: { bulkTransferId: bulk.bulkTransferId }, order: { itemIndex: 'ASC' } });
      const records = await acceptedRecords(manager, items);
      return items
        .filter((item) => party === 'payer' || !item.errorCode)
        .map((item) => {
          if (item.errorCode)
            return { transferId: item.transferId, errorInformation: { errorCode: item.errorCode, errorDescription: item.errorDescription ?? '' } };
          return resultOf(records.get(item.transferId)!);
        });
    });
  }

  /** The hub's POST /bulkTransfers to the payee: the payer's bulk with only the items accepted, each as the payer sent it. */
  payeeRequest(bulk: BulkTransferRecord): Promise<BulkTransfersPostRequest> {
    return this.services.db.read(async (manager) => {
      const items = await manager.find(BulkTransferItem, { where: { bulkTransferId: bulk.bulkTransferId }, order: { itemIndex: 'ASC' } });
      const individualTransfers = items.filter((item) => !item.errorCode).map((item) => JSON.parse(item.request) as IndividualTransfer);
      return { ...(JSON.parse(bulk.request) as Omit<BulkTransfersPostRequest, 'individualTransfers'>), individualTransfers };
    });
  }

  /** Records the bulk as RECEIVED; a record with another request hash means a conflicting duplicate (3106). */
  private async record(body: BulkTransfersPostRequest, requestHash: string): Promise<BulkTransferRecord> {
    const { individualTransfers, ...request } = body;
    await this.services.db.transaction(async (manager) => {
      await manager
        .createQueryBuilder()
        .insert()
        .into(BulkTransferRecord)
        .values({
          bulkTransferId: body.bulkTransferId,
          payerFsp: body.payerFsp,
          payeeFsp: body.payeeFsp,
          expiration: new Date(instantOf(body.expiration)),
          requestHash,
          bulkTransferState: 'RECEIVED',
          request: JSON.stringify(request),
          errorCode: null,
          errorDescription: null,
          completedTimestamp: null,
          createdDate: new Date(),
        })
        .orIgnore()
        .execute();
    });
    const stored = await this.find(body.bulkTransferId);
    if (stored?.requestHash !== requestHash) throw new HubError('modifiedRequest');
    return stored;
  }

  /**
   * The bulk checks of central-ledger's bulk prepare handler (a failure throws: the whole bulk is refused), then each
   * item's: its transferId is its own (else 3106), its amount is valid and both FSPs have a position in its currency.
   */
  private async plan(manager: EntityManager, body: BulkTransfersPostRequest, destination: string | undefined) {
    checkRequest(body);
    // Every item lapses with its bulk: the ledger refuses to commit any after it.
    const expiresAt = new Date(instantOf(body.expiration));
    await activeParticipant(manager, body.payerFsp, 'payerFspIdNotFound', 'payerFspIdNotFound');
    await activeParticipant(manager, body.payeeFsp, 'payeeFspIdNotFound', 'payeeFspIdNotFound');
    if (destination) await activeParticipant(manager, destination, 'payeeFspIdNotFound', 'payeeFspIdNotFound');
    const taken = await recordsById(
      manager,
      body.individualTransfers.map((item) => item.transferId),
    );
    const accountsIn = new Map<string, Promise<TransferAccounts>>();
    const seen = new Set<string>();
    const planned: PlannedItem[] = [];
    const movements: Movement[] = [];
    for (const item of body.individualTransfers) {
      const { transferId, transferAmount } = item;
      if (seen.has(transferId) || taken.has(transferId)) {
        const where = seen.has(transferId) ? 'more than once in this bulk' : 'already as another transfer';
        planned.push({ item, own: false, refusal: errorInformation('modifiedRequest', `transfer ${transferId} exists ${where}`) });
        continue;
      }
      seen.add(transferId);
      try {
        checkAmount(transferAmount);
        const currency = transferAmount.currency;
        if (!accountsIn.has(currency)) accountsIn.set(currency, transferAccounts(manager, body.payerFsp, body.payeeFsp, currency));
        const accounts = await accountsIn.get(currency)!;
        movements.push({ transferId, kind: 'TRANSFER', debitAccountId: accounts.payer.id, creditAccountId: accounts.payee.id, ...transferAmount, expiresAt });
        planned.push({ item, own: true });
      } catch (error) {
        if (!(error instanceof HubError)) throw error;
        planned.push({ item, own: true, refusal: error.errorInformation });
      }
    }
    return { planned, movements };
  }

  /**
   * Writes the items, their transfer records (RESERVED, or ABORTED with why) and the bulk's new state, in the
   * reservations' transaction. The bulk becomes ACCEPTED, or REJECTED if no item was accepted.
   */
  private async store(manager: EntityManager, bulk: BulkTransferRecord, planned: PlannedItem[], reservations: Reservation[]): Promise<void> {
    const now = new Date();
    const refusals = new Map(reservations.flatMap((r) => ('refused' in r ? [[r.transferId, r.refused.errorInformation] as const] : [])));
    const items: BulkTransferItem[] = [];
    const records: TransferRecord[] = [];
    planned.forEach(({ item, own, refusal: planRefusal }, itemIndex) => {
      const refusal = planRefusal ?? (own ? refusals.get(item.transferId) : undefined);
      items.push({ bulkTransferId: bulk.bulkTransferId, itemIndex, transferId: item.transferId, request: JSON.stringify(item), ...errorColumns(refusal) });
      if (!own) return;
      records.push({
        transferId: item.transferId,
        payerFsp: bulk.payerFsp,
        payeeFsp: bulk.payeeFsp,
        amount: formatAmount(item.transferAmount.amount),
        currency: item.transferAmount.currency,
        ilpCondition: item.condition,
        ilpPacket: item.ilpPacket,
        expiration: bulk.expiration,
        // The bulk's hash: a POST /transfers reusing an item's ID is a modified request (3106), as in central-ledger.
        requestHash: bulk.requestHash,
        transferState: refusal ? 'ABORTED' : 'RESERVED',
        fulfilment: null,
        completedTimestamp: refusal ? now : null,
        payeeWantsNotification: false,
        createdDate: now,
        ...errorColumns(refusal),
      });
    });
    await insertRows(manager, BulkTransferItem, items);
    await insertRows(manager, TransferRecord, records);
    await countOutcomes(
      manager,
      records.filter((record) => record.transferState === 'ABORTED'),
    );
    const accepted = items.some((item) => !item.errorCode);
    const moved = await manager.update(
      BulkTransferRecord,
      { bulkTransferId: bulk.bulkTransferId, bulkTransferState: 'RECEIVED' },
      { bulkTransferState: accepted ? 'ACCEPTED' : 'REJECTED', ...(accepted ? {} : { completedTimestamp: now }) },
    );
    // Another attempt of this step got there first: roll back, and the retry finds the bulk prepared.
    if (!moved.affected) throw new Error(`bulk transfer ${bulk.bulkTransferId} was prepared meanwhile`);
  }

  /** Records a bulk refused as a whole; nothing of it was reserved. */
  private async reject(bulkTransferId: string, error: ErrorInformation): Promise<void> {
    await this.services.db.transaction((manager) =>
      manager.update(
        BulkTransferRecord,
        { bulkTransferId, bulkTransferState: 'RECEIVED' },
        { bulkTransferState: 'REJECTED', completedTimestamp: new Date(), ...errorColumns(error) },
      ),
    );
  }

  /**
   * Commits or releases the decided items, a batch per ledger step, each item's record moving with its movement in
   * the same transaction. A movement the ledger no longer holds reserved (released by the sweep) keeps its outcome;
   * one the ledger released though asked to commit had expired.
   */
  private async resolve(bulkTransferId: string, decisions: Decision[]): Promise<void> {
    const { db, ledger } = this.services;
    await db.transaction((manager) =>
      manager.update(BulkTransferRecord, { bulkTransferId, bulkTransferState: 'ACCEPTED' }, { bulkTransferState: 'PROCESSING' }),
    );
    for (const batch of chunks(decisions, RESOLVE_BATCH)) {
      const byId = new Map(batch.map((decision) => [decision.transferId, decision]));
      await ledger.resolveEach(
        batch.map(({ transferId, fulfilment }) => ({ transferId, outcome: fulfilment ? 'COMMITTED' : 'ABORTED' })),
        async (manager, resolved) => {
          const decided: string[] = [];
          for (const { transferId, state } of resolved) {
            if (state === 'RESERVED') continue;
            const { fulfilment, errorInformation: refusal } = byId.get(transferId)!;
            // Released though the payee fulfilled it: the ledger found it expired.
            const released = refusal ?? errorInformation('transferExpired');
            const extra = state === 'COMMITTED' ? { fulfilment } : { errorInformation: released };
            await finishIn(manager, transferId, state, ['RESERVED'], extra, decided);
          }
          await countDecided(manager, decided);
        },
      );
    }
  }

  /** The bulk's items still reserved, by transferId. */
  private openItems(bulkTransferId: string): Promise<Map<string, TransferRecord>> {
    return this.services.db.read(async (manager) => {
      const items = await manager.find(BulkTransferItem, { where: { bulkTransferId }, select: { transferId: true, errorCode: true } });
      const records = await acceptedRecords(manager, items);
      return new Map([...records].filter(([, record]) => record.transferState === 'RESERVED'));
    });
  }

  /** The items accepted at prepare: those not refused, whatever became of them since. */
  private countAccepted(bulkTransferId: string): Promise<number> {
    return this.services.db.read((manager) => manager.countBy(BulkTransferItem, { bulkTransferId, errorCode: IsNull() }));
  }
}

/** The transfer records of a bulk's accepted items (those not refused at prepare), by transferId. */
function acceptedRecords(manager: EntityManager, items: Array<Pick<BulkTransferItem, 'transferId' | 'errorCode'>>): Promise<Map<string, TransferRecord>> {
  return recordsById(
    manager,
    items.filter((item) => !item.errorCode).map((item) => item.transferId),
  );
}

async function recordsById(manager: EntityManager, ids: string[]): Promise<Map<string, TransferRecord>> {
  const found = new Map<string, TransferRecord>();
  for (const chunk of chunks([...new Set(ids)])) {
    for (const record of await manager.findBy(TransferRecord, { transferId: In(chunk) })) found.set(record.transferId, record);
  }
  return found;
}

/** What the payee's answer for one item decides (central-ledger's bulk fulfil: commit with a fulfilment and no error, else abort). */
function decide(record: TransferRecord, result: ItemResult): Decision {
  const { transferId } = record;
  if (result.errorInformation) return { transferId, errorInformation: result.errorInformation };
  if (!result.fulfilment) return { transferId, errorInformation: errorInformation('validationError', `no fulfilment for transfer ${transferId}`) };
  if (conditionOf(result.fulfilment) !== record.ilpCondition) {
    return {
      transferId,
      errorInformation: errorInformation('validationError', `invalid fulfilment for transfer ${transferId}: it does not match the condition`),
    };
  }
  return { transferId, fulfilment: result.fulfilment };
}

function resultOf(record: TransferRecord): IndividualTransferResult {
  const { transferId } = record;
  if (record.transferState === 'COMMITTED') return { transferId, fulfilment: record.fulfilment! };
  if (record.transferState === 'ABORTED') {
    return { transferId, errorInformation: { errorCode: record.errorCode ?? '', errorDescription: record.errorDescription ?? '' } };
  }
  return { transferId };
}
