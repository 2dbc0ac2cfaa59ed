import { Consents } from '../../activities/hub/auth/consents';
import { correlationKeys, Correlations } from '../../activities/hub/thirdparty/correlations';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import { Currency, Dfsp, PayeeFsp, Pisp, State } from '../../activities/shared/contracts/searchAttributes';
import { linking } from '../../workflows/hub/linking';
import { thirdpartyTransaction } from '../../workflows/hub/thirdpartyTransaction';
import type { SwitchDependencies } from '../fspiop/switchApp';
import type { FspiopRequest } from '../fspiop/headers';
import type { ObserverRef } from './thirdpartyRoutes';

/** Who is the PISP and who the DFSP of a message, by the direction Document 1 gives it. */
export interface Sides {
  pisp?: string;
  dfsp?: string;
}

/** The linking a consent request belongs to. The PISP sends the consent request, so its first message names both sides. */
export function linkingOf(consentRequestId: string, sides: Sides): ObserverRef {
  return {
    workflowId: workflowIds.linking(consentRequestId),
    workflow: linking,
    openedBy: 'consentRequests',
    searchAttributes: [
      { key: Pisp, value: sides.pisp ?? '' },
      { key: Dfsp, value: sides.dfsp ?? '' },
      { key: State, value: 'OBSERVING' },
    ],
    summary: `Linking ${consentRequestId} between ${sides.pisp ?? '?'} and ${sides.dfsp ?? '?'}`,
  };
}

/** The linking a consent came from, as the switch recorded it when the DFSP granted the consent. */
export async function linkingOfConsent(consentId: string, deps: SwitchDependencies): Promise<ObserverRef | undefined> {
  const consent = await new Consents(deps.services.db).find(consentId);
  if (!consent?.consentRequestId) return undefined;
  return linkingOf(consent.consentRequestId, { pisp: consent.pisp ?? undefined, dfsp: consent.dfsp ?? undefined });
}

/** A third-party transaction request's observer. */
export function transactionOf(transactionRequestId: string, sides: Sides, extra: { currency?: string; payeeFsp?: string } = {}): ObserverRef {
  return {
    workflowId: workflowIds.thirdpartyTransaction(transactionRequestId),
    workflow: thirdpartyTransaction,
    openedBy: 'thirdpartyRequests/transactions',
    searchAttributes: [
      { key: Pisp, value: sides.pisp ?? '' },
      { key: Dfsp, value: sides.dfsp ?? '' },
      { key: State, value: 'OBSERVING' },
      ...(extra.currency ? [{ key: Currency, value: extra.currency }] : []),
      ...(extra.payeeFsp ? [{ key: PayeeFsp, value: extra.payeeFsp }] : []),
    ],
    summary: `Third-party transaction ${transactionRequestId} from ${sides.pisp ?? '?'} at ${sides.dfsp ?? '?'}`,
  };
}

/** The third-party transaction request a correlated message (an authorization's or verification's answer) belongs to. */
export function transactionCorrelatedBy(key: string, deps: SwitchDependencies): Promise<string | undefined> {
  return new Correlations(deps.services.db).transactionOf(key);
}

/** Remembers that messages carrying these keys belong to the third-party transaction request. */
export function rememberTransaction(keys: string[], transactionRequestId: string, deps: SwitchDependencies): Promise<void> {
  return new Correlations(deps.services.db).remember(keys, transactionRequestId);
}

/** PISP to DFSP messages: the sender is the PISP. */
export const fromPisp = (fspiop: FspiopRequest): Sides => ({ pisp: fspiop.source, dfsp: fspiop.destination });
/** DFSP to PISP messages: the sender is the DFSP. */
export const fromDfsp = (fspiop: FspiopRequest): Sides => ({ dfsp: fspiop.source, pisp: fspiop.destination });

export { correlationKeys };
