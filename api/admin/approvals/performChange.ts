import { QueryFailedError } from 'typeorm';
import { HubError } from '../../../activities/shared/platform/hubError';
import type { ActionAnswer, ApprovalOutcome, PerformChange } from '../../../activities/shared/contracts/approvals';
import { errorInformation } from '../../../activities/shared/contracts/errors';
import { HttpError } from '../../../activities/shared/platform/httpError';
import { settlementActions, type SettlementActionServices } from '../../settlement/settlementActions';
import { adminActions, type AdminActionServices } from '../adminActions';

type Action = (input: never) => Promise<ActionAnswer>;

/** A change's own refusal, as the route would have answered it; anything else (a database out of reach) is not one. */
function refusalOf(error: unknown): ApprovalOutcome | undefined {
  if (error instanceof HttpError) return { performed: false, status: error.status, errorInformation: error.errorInformation };
  if (error instanceof HubError) return { performed: false, status: 400, errorInformation: error.errorInformation };
  if (error instanceof QueryFailedError && /duplicate entry|unique constraint/i.test(error.message)) {
    return { performed: false, status: 400, errorInformation: errorInformation('clientError', 'it already exists') };
  }
  return undefined;
}

/**
 * Every change the admin and settlement routes make, by name, as an approval's workflow performs them once approved:
 * the outcome is the answer the route would have given, or the refusal it would have answered; any other failure is
 * thrown, for the activity's retries.
 */
export function changePerformer(services: AdminActionServices & SettlementActionServices): PerformChange {
  const actions: Record<string, Action> = { ...adminActions(services), ...settlementActions(services) };
  return async (name, input) => {
    if (!Object.hasOwn(actions, name)) {
      return { performed: false, status: 400, errorInformation: errorInformation('validationError', `no change is named ${name}`) };
    }
    try {
      return { performed: true, answer: await actions[name](input as never) };
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      return refusal;
    }
  };
}
