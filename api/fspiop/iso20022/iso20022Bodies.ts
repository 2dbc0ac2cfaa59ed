import type { Middleware } from 'koa';
import type { Iso20022Operation, Iso20022Resource } from '../../../activities/shared/contracts/apiType';
import { validateIso20022, warmUpIso20022Schemas, type Iso20022Schema } from '../../../activities/shared/contracts/schemas';
import { HttpError } from '../../../activities/shared/platform/httpError';
import { fspiopOf } from '../../../activities/shared/platform/iso20022Transforms';
import { readJsonBody } from '../../http/body';

/** The body each ISO 20022 message a participant sends must be (FSPIOP 2.0's ISO 20022 document, its paths). */
const SCHEMAS: Record<Iso20022Resource, Partial<Record<Iso20022Operation, Iso20022Schema>>> = {
  parties: { put: 'GetParties_IdentificationVerificationReportV03', putError: 'GetPartiesError_IdentificationVerificationReportV03' },
  quotes: {
    post: 'TermsRequest_FIToFICustomerCreditProposal',
    put: 'TermsResponse_FIToFICustomerCreditConfirmation',
    putError: 'PacsError_FIToFIPaymentStatusReportV15',
  },
  transfers: {
    post: 'Execute_FIToFICustomerCreditTransferV13',
    put: 'PacsStatus_FIToFIPaymentStatusReportV15',
    putError: 'PacsError_FIToFIPaymentStatusReportV15',
  },
};

/** The operation a request with a body is, by its method and path; undefined for one without (GET). */
export function operationOf(method: string, path: string): Iso20022Operation | undefined {
  if (method === 'POST') return 'post';
  if (method === 'PUT') return path.endsWith('/error') ? 'putError' : 'put';
  return undefined;
}

/**
 * ISO 20022 mode at the gateway, as Mojaloop's ml-api-adapter and quoting-service do it: a participant's message is
 * validated against the ISO 20022 schema of its path (a violation is the FSPIOP error Mojaloop's validator gives,
 * 3100-3103) and read as the FSPIOP body it stands for, which everything after (the routes' FSPIOP checks, the
 * workflows) takes as the body; its text stays the participant's, passed on byte for byte. Runs after the signature
 * check, which reads the same text.
 */
export function iso20022Bodies(resource: Iso20022Resource): Middleware {
  warmUpIso20022Schemas();
  return async (ctx, next) => {
    const operation = operationOf(ctx.method, ctx.path);
    const schema = operation && SCHEMAS[resource][operation];
    if (operation && schema) {
      const { body, text } = await readJsonBody(ctx);
      const fspiop = await readAsFspiop(resource, operation, validateIso20022(schema, body));
      // The reading every later step of this request gets (readJsonBody): the FSPIOP body beside the ISO text.
      ctx.state.jsonBody = Promise.resolve({ body: fspiop, text });
    }
    await next();
  };
}

/** A message its schema admits may still hold what the transformer cannot read (an ILP packet that is none): 3100. */
async function readAsFspiop(resource: Iso20022Resource, operation: Iso20022Operation, body: unknown): Promise<unknown> {
  try {
    return await fspiopOf({ resource, operation }, body);
  } catch (error) {
    throw new HttpError(400, 'validationError', `the ISO 20022 body cannot be read: ${(error as Error).message}`.slice(0, 256));
  }
}
