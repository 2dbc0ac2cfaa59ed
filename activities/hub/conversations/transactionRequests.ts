import type { TransactionRequestRecordState, TransactionRequestsPostRequest } from '../../shared/contracts/bodies';
import type { FspiopHeaders } from '../../shared/contracts/messages';
import type { TransactionRequestPolicy } from '../../shared/platform/config';
import { HubError } from '../../shared/platform/hubError';
import type { ParticipantDirectory } from '../delivery/directory';
import { TransactionRequestRecord } from '../db/switchEntities';
import type { HubServices } from '../hubServices';

const DAY_MS = 86_400_000;

export interface RegisterTransactionRequestInput {
  body: TransactionRequestsPostRequest;
  /** The payee FSP, which sent the request. */
  payeeFsp: string;
  destination?: string;
  requestHash: string;
}

export interface TransactionRequestRegistration {
  payerFsp: string;
  /** Answered long ago (its workflow history is gone, its record is not): a repeat, not a new request. */
  repeat: boolean;
  /** How long the conversation stays open after its last message (TRANSACTION_REQUEST_IDLE_SECONDS). */
  idleMs: number;
}

export interface TransactionRequestAnswer {
  transactionRequestId: string;
  /** Only the request with this body is answered: a conflicting duplicate's refusal never rewrites the record. */
  requestHash: string;
  state: TransactionRequestRecordState;
  /** The answering participant's headers; none for an error the hub made itself. */
  headers?: FspiopHeaders;
  /** The answer's body as it was passed on. */
  body: string;
}

/** The record of a transaction request, written by its workflow's first step before anything is forwarded. */
export function findTransactionRequest(services: HubServices, transactionRequestId: string): Promise<TransactionRequestRecord | null> {
  return services.db.read((manager) => manager.findOneBy(TransactionRequestRecord, { transactionRequestId }));
}

/**
 * The switch's record of each transaction request it routes: who asked whom and the last answer the requester
 * got, so a GET or a repeated request is answered after the conversation ended, for the retention period.
 */
export class TransactionRequests {
  constructor(
    private readonly services: HubServices,
    private readonly directory: ParticipantDirectory,
    private readonly policy: TransactionRequestPolicy,
  ) {}

  /**
   * Records the request, then finds its payer FSP: FSPIOP-Destination, else payer.fspId. The body's parties are not
   * checked against the headers: Mojaloop's SDK sends them swapped, and Mojaloop's hub never looks at them.
   */
  async register({ body, payeeFsp, destination, requestHash }: RegisterTransactionRequestInput): Promise<TransactionRequestRegistration> {
    const { transactionRequestId } = body;
    const payerFsp = destination ?? body.payer.fspId;
    const row = { transactionRequestId, payeeFsp, payerFsp: payerFsp ?? null, requestHash, state: 'REQUESTED' as const, createdDate: new Date() };
    await this.services.db.transaction((manager) => manager.createQueryBuilder().insert().into(TransactionRequestRecord).values(row).orIgnore().execute());
    const stored = (await this.find(transactionRequestId))!;
    if (stored.requestHash !== requestHash) {
      throw new HubError('modifiedRequest', `transaction request ${transactionRequestId} exists with different details`);
    }
    const idleMs = this.policy.idleSeconds * 1000;
    if (stored.state !== 'REQUESTED') return { payerFsp: stored.payerFsp ?? '', repeat: true, idleMs };
    if (!payerFsp) throw new HubError('validationError', 'FSPIOP-Destination (or payer.fspId) must name the payer FSP');
    const problem = await this.directory.unavailable(payerFsp);
    // Mojaloop's hub finds a destination by its endpoints, and a failed lookup is 1001 whatever the reason
    // ("no endpoints found for fsp"); its 3201 branch is never reached. A payer FSP the switch cannot use is told so.
    if (problem) throw new HubError('destinationCommunicationError', `FSPIOP-Destination ${payerFsp}: ${problem}`);
    return { payerFsp, repeat: false, idleMs };
  }

  /** Records the answer the requester got, which GET and repeats get again. */
  async answered({ transactionRequestId, requestHash, state, headers, body }: TransactionRequestAnswer): Promise<void> {
    await this.services.db.transaction((manager) =>
      manager.update(
        TransactionRequestRecord,
        { transactionRequestId, requestHash },
        { state, responseHeaders: headers ? JSON.stringify(headers) : null, responseBody: body, completedDate: new Date() },
      ),
    );
  }

  find(transactionRequestId: string): Promise<TransactionRequestRecord | null> {
    return findTransactionRequest(this.services, transactionRequestId);
  }

  /** Whether the record still answers GET: within the retention period after its last answer. */
  isKept(record: TransactionRequestRecord): boolean {
    const since = record.completedDate ?? record.createdDate;
    return since.getTime() + this.policy.retentionDays * DAY_MS > Date.now();
  }
}
