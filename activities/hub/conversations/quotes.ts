import type { QuotesPostRequest } from '../../../api/contracts/bodies';
import type { FspiopHeaders } from '../../../api/contracts/messages';
import { Participant } from '../db/entities';
import { QuoteRecord, QuoteState } from '../db/switchEntities';
import type { HubServices } from '../services';
import { HubError } from '../../platform/hubError';

export interface RegisterQuoteInput {
  body: QuotesPostRequest;
  payerFsp: string;
  payeeFsp?: string;
  requestHash: string;
}

/**
 * The switch's record of each quote it routes: who asked whom, and the answer it passed back, so a
 * repeated request or a GET can be answered after the conversation ended.
 */
export class Quotes {
  constructor(private readonly services: HubServices) {}

  /** Checks the payee FSP can be quoted and records the quote as PENDING. */
  async register({ body, payerFsp, payeeFsp, requestHash }: RegisterQuoteInput): Promise<{ payeeFsp: string; repeat: boolean }> {
    const payee = payeeFsp ?? body.payee.partyIdInfo.fspId;
    if (!payee) throw new HubError('validationError', 'FSPIOP-Destination (or payee.partyIdInfo.fspId) must name the payee FSP');
    const participant = await this.services.db.read((manager) => manager.findOneBy(Participant, { name: payee }));
    if (!participant) throw new HubError('payeeFspIdNotFound', `${payee} is not a participant`);
    if (!participant.isActive) throw new HubError('payeeFspIdNotFound', `participant ${payee} is inactive`);
    if (payee === payerFsp) throw new HubError('validationError', 'payer and payee FSP must differ');
    await this.services.db.transaction(async (manager) => {
      await manager
        .createQueryBuilder()
        .insert()
        .into(QuoteRecord)
        .values({
          quoteId: body.quoteId,
          payerFsp,
          payeeFsp: payee,
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
    const stored = await this.find(body.quoteId);
    if (stored?.requestHash !== requestHash) throw new HubError('modifiedRequest', `quote ${body.quoteId} exists with different details`);
    // Answered long ago (its workflow history is gone, its record is not): a repeat, not a new quote.
    return { payeeFsp: payee, repeat: stored.state !== 'PENDING' };
  }

  /** Records the outcome and the payee's answer exactly as it was passed to the payer. */
  async complete(input: { quoteId: string; state: QuoteState; headers?: FspiopHeaders; body?: unknown }): Promise<void> {
    await this.services.db.transaction((manager) =>
      // Only a pending quote is completed: a late or repeated step never rewrites the stored answer.
      manager.update(
        QuoteRecord,
        { quoteId: input.quoteId, state: 'PENDING' },
        {
          state: input.state,
          responseHeaders: input.headers ? JSON.stringify(input.headers) : null,
          responseBody: input.body === undefined ? null : JSON.stringify(input.body),
          completedDate: new Date(),
        },
      ),
    );
  }

  find(quoteId: string): Promise<QuoteRecord | null> {
    return this.services.db.read((manager) => manager.findOneBy(QuoteRecord, { quoteId }));
  }
}
