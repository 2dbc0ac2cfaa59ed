import type { Workflow } from '@temporalio/common';
import { Quotes } from '../../activities/hub/conversations/quotes';
import type { ErrorInformationObject } from '../../activities/shared/contracts/bodies';
import { quoting, QuoteResource } from '../../activities/shared/contracts/conversations';
import type { ReceivedCallback, RelayedCallback } from '../../activities/shared/contracts/messages';
import { Currency, PayeeFsp, PayerFsp, State } from '../../activities/shared/contracts/searchAttributes';
import { QuoteResponse, quoteResponseSignal, repeatedQuoteSignal } from '../../workflows/kit/quoteConversation';
import type { ResourceRoutes } from './switchApp';
import { conversationRoutes, PartOf } from './conversationRoutes';
import type { FspiopRequest } from './headers';
import type { FspiopSchema } from '../../activities/shared/contracts/schemas';

/** A resource quoted through the switch (quotes, bulk quotes): what differs between them. */
export interface QuotingDeclaration<Request> {
  resource: QuoteResource;
  schemas: { request: FspiopSchema; answer: FspiopSchema };
  workflow: Workflow;
  /** How an operator finds the request in the Temporal UI: its ID, payee FSP, currency and one line. */
  describe: (body: Request, fspiop: FspiopRequest) => { id: string; payeeFsp?: string; currency: string; summary: string };
  /** The third-party conversation a quote is a step of. */
  partOf?: PartOf<Request>;
}

/** The payee's answer is passed on unread: only its headers and text travel to the workflow. */
const relayed = ({ headers, rawBody }: ReceivedCallback<unknown>): RelayedCallback => ({ headers, rawBody });

/**
 * POST starts the quote's workflow; the payee's PUT and PUT …/error are signals to it until the answer is recorded;
 * GET, repeats, anyone else's callbacks and callbacks nobody waits for are answered from the quote record, which the
 * workflow writes before it forwards the request.
 */
export function quotingRoutes<Request>(declaration: QuotingDeclaration<Request>): ResourceRoutes {
  const { resource, schemas, workflow, describe, partOf } = declaration;
  const { workflowId } = quoting[resource];
  return conversationRoutes<Request, unknown, ErrorInformationObject>({
    resource,
    post: {
      schema: schemas.request,
      workflow,
      repeatSignal: repeatedQuoteSignal,
      start: (body, fspiop) => {
        const { id, payeeFsp, currency, summary } = describe(body, fspiop);
        const searchAttributes = [
          { key: PayerFsp, value: fspiop.source },
          { key: PayeeFsp, value: payeeFsp ?? '' },
          { key: Currency, value: currency },
          { key: State, value: 'PENDING' },
        ];
        return { id, workflowId: workflowId(id), searchAttributes, summary };
      },
      repeatedAfterEnd: (id, requestHash, requester) => ({ kind: 'repeatedQuote', resource, id, requestHash, requester }),
      partOf,
    },
    get: (id, requester) => ({ kind: 'quoteGet', resource, id, requester }),
    stored: async (services, id) => {
      const record = await new Quotes(services).find(resource, id);
      return record ? { answerer: record.payeeFsp, decided: record.state !== 'PENDING' } : undefined;
    },
    answer: {
      schema: schemas.answer,
      workflowId,
      signal: quoteResponseSignal,
      signalArgument: (callback): QuoteResponse => ({ kind: 'quote', callback: relayed(callback) }),
      orphan: (id, callback, fspiop) => ({ kind: 'quoteCallback', resource, id, isError: false, callback: relayed(callback), version: fspiop.version }),
    },
    error: {
      schema: 'ErrorInformationObject',
      workflowId,
      signal: quoteResponseSignal,
      signalArgument: (callback): QuoteResponse => ({ kind: 'error', callback }),
      orphan: (id, callback, fspiop) => ({ kind: 'quoteCallback', resource, id, isError: true, callback: relayed(callback), version: fspiop.version }),
    },
  });
}
