import type { FollowUp } from '../../shared/contracts/followUps';
import type { AuthServiceAnswers } from '../auth/authServiceAnswers';
import type { CallbackSender } from '../delivery/callbacks';
import type { Routing } from '../delivery/routing';
import type { ServiceProviders } from '../thirdparty/serviceProviders';
import type { BulkTransferFollowUp } from './bulkTransferFollowUp';
import type { QuoteFollowUp } from './quoteFollowUp';
import type { TransactionRequestFollowUp } from './transactionRequestFollowUp';
import type { TransferFollowUp } from './transferFollowUp';

/** The one place a follow-up (see `FollowUp`) is answered from its conversation's record. */
export class FollowUps {
  constructor(
    private readonly transfers: TransferFollowUp,
    private readonly quotes: QuoteFollowUp,
    private readonly transactionRequests: TransactionRequestFollowUp,
    private readonly routing: Routing,
    private readonly bulkTransfers: BulkTransferFollowUp,
    private readonly authService: AuthServiceAnswers,
    private readonly serviceProviders: ServiceProviders,
    private readonly sender: CallbackSender,
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
        return this.quotes.route(followUp.resource, followUp.id, followUp.isError, followUp.callback, followUp.version);
      case 'transactionRequestGet':
        return this.transactionRequests.get(followUp.transactionRequestId, followUp.requester);
      case 'repeatedTransactionRequest':
        return this.transactionRequests.repeated(followUp.transactionRequestId, followUp.requestHash, followUp.requester);
      case 'lateTransactionRequestAnswer':
        return this.transactionRequests.lateAnswer(followUp.transactionRequestId, followUp.isError, followUp.callback, followUp.version);
      case 'routed':
        return this.routing.route(followUp);
      case 'bulkTransferStatus':
        return this.bulkTransfers.status(followUp.bulkTransferId, followUp.requester.source, followUp.requester.version);
      case 'servicesGet':
        return this.serviceProviders.answer(followUp.serviceType, followUp.requester);
      case 'consentGet':
        return this.authService.consent(followUp.consentId, followUp.requester.source);
      case 'consentRequest': {
        const { request } = followUp;
        const answering =
          request.kind === 'registration'
            ? this.authService.registration(request.registration)
            : request.kind === 'verification'
              ? this.authService.verification(request.request, request.requester)
              : this.authService.revocation(followUp.consentId, request.requester);
        return answering.then(() => undefined);
      }
      case 'refusedRequest': {
        const { requester, resource, id, errorInformation } = followUp;
        return this.sender.sendHubError(requester.source, resource, id, requester.version, errorInformation);
      }
      case 'repeatedBulkTransfer':
        return this.bulkTransfers.repeated(followUp.bulkTransferId, followUp.requestHash, followUp.requester.source, followUp.requester.version);
    }
  }
}
