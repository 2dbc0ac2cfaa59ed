import crypto from 'node:crypto';
import { participantWorkflowIds, PeerMessage } from '../../activities/shared/contracts/peers';
import { answersTo, handToFirstRunning, InboundDependencies, InboundRoute, startWith } from '../connector/inboundRoutes';
import { validateFspiop } from '../../activities/shared/contracts/schemas';
import { HttpError } from '../../activities/shared/platform/httpError';

/** A PATCH /transfers/{ID} body; the switch sends it with the FSPIOP transfers media type. */
const validatePatch = (body: unknown) => validateFspiop('TransfersIDPatchResponse', body);

/** The {ID} of a request a route starts a conversation for, from its body (a POST has none in its path). */
function bodyId(message: PeerMessage, field: 'quoteId' | 'transferId'): string {
  const id = (message.body as Record<string, unknown>)[field];
  if (typeof id !== 'string') throw new HttpError(400, 'missingElement', `${field} is required`);
  return id;
}

/** Starts the payee's conversation for a message, or hands the message to the one already running. */
const payeeConversation =
  (workflowType: 'payeeParty' | 'payeeQuote' | 'payeeTransfer', workflowIdOf: (message: PeerMessage) => string) =>
  (message: PeerMessage, deps: InboundDependencies) =>
    startWith(workflowType, workflowIdOf(message), [], message, deps);

/** The FSPIOP messages (Document 2) a DFSP takes from the switch as payee, and the answers it takes as payer. */
export const fspiopInbound: InboundRoute[] = [
  // Payee: a lookup of one of the bank's parties.
  {
    resource: 'parties',
    name: 'get',
    // Each lookup its own workflow: a party looked up all day long would otherwise fill one workflow's history.
    deliver: payeeConversation('payeeParty', (message) => participantWorkflowIds.payeeParty(message.id!, crypto.randomUUID())),
  },
  // Payee: a quote asked of the bank; the quote's conversation also takes its repeats.
  {
    resource: 'quotes',
    name: 'request',
    validate: (body) => validateFspiop('QuotesPostRequest', body),
    deliver: payeeConversation('payeeQuote', (message) => participantWorkflowIds.payeeQuote(bodyId(message, 'quoteId'))),
  },
  // Payee: a transfer to one of the bank's parties, its repeats, and the switch's notification of its final state.
  {
    resource: 'transfers',
    name: 'request',
    validate: (body) => validateFspiop('TransfersPostRequest', body),
    deliver: payeeConversation('payeeTransfer', (message) => participantWorkflowIds.payeeTransfer(bodyId(message, 'transferId'))),
  },
  {
    resource: 'transfers',
    name: 'patch',
    validate: validatePatch,
    deliver: payeeConversation('payeeTransfer', (message) => participantWorkflowIds.payeeTransfer(message.id!)),
  },
  // Payer: the answers to the bank's lookups, quotes and transfers go to the exchanges waiting for them.
  ...answersTo('parties', (body) => validateFspiop('PartiesTypeIDPutResponse', body)),
  ...answersTo('quotes', (body) => validateFspiop('QuotesIDPutResponse', body)),
  // PUT /transfers/{ID}/error is the switch's answer to the bank's own transfer, or its abort of one the bank took as
  // payee (expired, or a fulfilment it refused): the payer's exchange has it if it waits, else the payee's conversation,
  // which takes the credit back.
  ...answersTo('transfers', (body) => validateFspiop('TransfersIDPutResponse', body)).map((route) =>
    route.name === 'error' ? { ...route, deliver: toPayerOrPayee } : route,
  ),
];

function toPayerOrPayee(message: PeerMessage, deps: InboundDependencies): Promise<void> {
  const transferId = message.id!;
  return handToFirstRunning([participantWorkflowIds.exchange('transfers', transferId), participantWorkflowIds.payeeTransfer(transferId)], message, deps);
}
