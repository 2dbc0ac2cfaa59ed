import { quoting, QuoteResource } from '../../shared/contracts/conversations';
import type { FspiopHeaders } from '../../shared/contracts/messages';
import { Participant } from '../db/entities';
import { QuoteRecord, QuoteState } from '../db/switchEntities';
import type { HubServices } from '../hubServices';
import { HubError } from '../../shared/platform/hubError';

export interface RegisterQuoteInput {
  resource: QuoteResource;
  /** The quoteId or bulkQuoteId. */
  id: string;
  payerFsp: string;
  /** As the request names it; undefined when it names none. */
  payeeFsp?: string;
  requestHash: string;
}

/**
 * The switch's record of each quote and bulk quote it routes: who asked whom, and the answer it passed back, so
 * a repeated request or a GET can be answered after the conversation ended.
 */
export class Quotes {
  constructor(private readonly services: HubServices) {}

  /** Checks the payee FSP can be quoted and records the quote as PENDING. */
  async register({ resource, id, payerFsp, payeeFsp, requestHash }: RegisterQuoteInput): Promise<{ payeeFsp: string; repeat: boolean }> {
    const { noun, unknownPayee, payeeNamedBy } = quoting[resource];
    if (!payeeFsp) throw new HubError('validationError', `${payeeNamedBy} must name the payee FSP`);
    const participant = await this.services.db.read((manager) => manager.findOneBy(Participant, { name: payeeFsp }));
    // The quoting service's words for a payee it cannot quote, unknown or inactive alike.
    if (!participant?.isActive) throw new HubError(unknownPayee, `Unsupported participant '${payeeFsp}'`);
    if (payeeFsp === payerFsp) throw new HubError('validationError', 'payer and payee FSP must differ');
    await this.services.db.transaction(async (manager) => {
      await manager
        .createQueryBuilder()
        .insert()
        .into(QuoteRecord)
        .values({
          resource,
          quoteId: id,
          payerFsp,
          payeeFsp,
          requestHash,
          state: 'PENDING',
          responseHeaders: null,
          responseBody: null,
          createdDate: new Date(),
          completedDate: null,
        })
        .orIgnore()
        .execute();
    });
    const stored = await this.find(resource, id);
    if (stored?.requestHash !== requestHash) throw new HubError('modifiedRequest', `${noun} ${id} exists with different details`);
    // Answered long ago (its workflow history is gone, its record is not): a repeat, not a new quote.
    return { payeeFsp, repeat: stored.state !== 'PENDING' };
  }

  /** Records the outcome and the answer exactly as it was passed to the payer (no headers: the hub's own error). */
  async complete(input: { resource: QuoteResource; id: string; state: QuoteState; headers?: FspiopHeaders; body: string }): Promise<void> {
    await this.services.db.transaction((manager) =>
      // Only a pending quote is completed: a late or repeated step never rewrites the stored answer.
      manager.update(
        QuoteRecord,
        { resource: input.resource, quoteId: input.id, state: 'PENDING' },
        {
          state: input.state,
          responseHeaders: input.headers ? JSON.stringify(input.headers) : null,
          responseBody: input.body,
          completedDate: new Date(),
        },
      ),
    );
  }

  find(resource: QuoteResource, id: string): Promise<QuoteRecord | null> {
    return this.services.db.read((manager) => manager.findOneBy(QuoteRecord, { resource, quoteId: id }));
  }
}
