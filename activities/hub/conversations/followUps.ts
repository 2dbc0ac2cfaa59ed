import type { FollowUp } from '../../../api/contracts/followUps';
import type { QuoteFollowUp } from './quoteFollowUp';
import type { TransferFollowUp } from './transferFollowUp';

/** The one place a follow-up (see `FollowUp`) is answered from its conversation's record. */
export class FollowUps {
  constructor(
    private readonly transfers: TransferFollowUp,
    private readonly quotes: QuoteFollowUp,
  ) {}

  answer(followUp: FollowUp): Promise<void> {
    switch (followUp.kind) {
      case 'transferStatus':
        return this.transfers.status(followUp.transferId, followUp.requester.source, followUp.requester.version);
      case 'repeatedTransfer':
        return this.transfers.repeated(followUp.transferId, followUp.requestHash, followUp.requester.source, followUp.requester.version);
      case 'lateFulfil':
        return this.transfers.lateFulfil(followUp.transferId, followUp.callback, followUp.version);
      case 'quoteGet':
        return this.quotes.get(followUp.resource, followUp.id, followUp.requester);
      case 'repeatedQuote':
        return this.quotes.repeated(followUp.resource, followUp.id, followUp.requestHash, followUp.requester.source, followUp.requester.version);
      case 'quoteCallback':
        return this.quotes.route(followUp.resource, followUp.id, followUp.isError, followUp.callback);
    }
  }
}
