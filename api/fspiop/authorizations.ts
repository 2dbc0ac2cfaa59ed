import type { Context } from 'koa';
import type { AuthorizationQuery, AuthorizationsIDPutResponse, ErrorInformationObject } from '../../activities/shared/contracts/bodies';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import { authorizationSignal, AuthorizationMessage } from '../../workflows/hub/transactionRequest';
import { HttpError } from '../../activities/shared/platform/httpError';
import { findTransactionRequest } from '../../activities/hub/conversations/transactionRequests';
import { conversationRoutes } from './conversationRoutes';
import { routedCallback, routedGet } from './routed';
import { FspiopSchema, validateFspiop } from '../../activities/shared/contracts/schemas';

/** The four pairs GET /authorizations/{ID} requires (Document 2), each with its FSPIOP type. */
const QUERY: Array<[keyof AuthorizationQuery, FspiopSchema]> = [
  ['authenticationType', 'AuthenticationType'],
  ['retriesLeft', 'Integer'],
  ['amount', 'Amount'],
  ['currency', 'Currency'],
];

/** The query string checked as Mojaloop's hub checks it: a missing key is 3102, a malformed value 3101, one outside its enumeration 3100. */
function authorizationQuery(ctx: Context): AuthorizationQuery {
  const query: Record<string, string> = {};
  for (const [key, schema] of QUERY) {
    const value = ctx.query[key];
    if (Array.isArray(value)) throw new HttpError(400, 'malformedSyntax', `query ${key} is given more than once`);
    query[key] = validateFspiop<string>(schema, value, `query ${key}`);
  }
  return query as unknown as AuthorizationQuery;
}

/**
 * /authorizations: {ID} is the transaction request's. The payer FSP's GET (query string passed on as sent) goes to
 * the payee FSP, its PUT and PUT …/error back to the payer FSP; each is a step of the running transactionRequest
 * workflow, or, when none runs, passed on by FSPIOP-Destination alone, as Mojaloop's hub does.
 */
export const authorizationsRoutes = conversationRoutes<never, AuthorizationsIDPutResponse, ErrorInformationObject>({
  resource: 'authorizations',
  getStep: {
    read: (ctx, fspiop): AuthorizationMessage => ({
      kind: 'authorizationGet',
      headers: fspiop.headers,
      query: authorizationQuery(ctx),
      queryString: ctx.querystring,
      version: fspiop.version,
    }),
    workflowId: workflowIds.transactionRequest,
    signal: authorizationSignal,
  },
  get: (transactionRequestId, fspiop, ctx) => routedGet('authorizations', transactionRequestId, fspiop, ctx.querystring),
  // Authorizations go between the transaction request's payer and payee FSPs, either way; anyone else is refused here.
  between: async (services, transactionRequestId) => {
    const record = await findTransactionRequest(services, transactionRequestId);
    return record ? [record.payeeFsp, ...(record.payerFsp ? [record.payerFsp] : [])] : undefined;
  },
  answer: {
    schema: 'AuthorizationsIDPutResponse',
    workflowId: workflowIds.transactionRequest,
    signal: authorizationSignal,
    signalArgument: (callback, fspiop): AuthorizationMessage => ({ kind: 'authorizationAnswer', callback, version: fspiop.version }),
    orphan: routedCallback('authorizations', 'answer'),
  },
  error: {
    schema: 'ErrorInformationObject',
    workflowId: workflowIds.transactionRequest,
    signal: authorizationSignal,
    signalArgument: (callback, fspiop): AuthorizationMessage => ({ kind: 'authorizationError', callback, version: fspiop.version }),
    orphan: routedCallback('authorizations', 'error'),
  },
});
