import type { HubServices } from '../../activities/hub/hubServices';
import type { FundsMovementRequest } from '../../activities/hub/ledger/funds';
import type { SettlementModelRequest } from '../../activities/hub/participants/settlementModels';
import type { SignatureChange } from '../../activities/hub/participants/signatureKeys';
import type { ActionAnswer } from '../../activities/shared/contracts/approvals';
import { limitView, participantView, settlementModelView } from './views';

/**
 * The changes the hub administration API makes, each named and taking the plain JSON its route validated: the route
 * performs one at once, or holds it for a second person (four eyes), and the approval's workflow performs it later
 * through this same code. Each answers as the route does (status and body), since Mojaloop's tooling reads them.
 */
export type AdminActionServices = Pick<HubServices, 'participants' | 'limits' | 'funds' | 'settlementModels' | 'signatures'>;

type FundsAction = 'recordFundsIn' | 'recordFundsOutPrepareReserve' | 'recordFundsOut';

/** The address the answer's links start from (`http://host:port`), as the request that asked for the change came in. */
interface Linked {
  baseUrl: string;
}

const answer = (status: number, body: unknown = null): ActionAnswer => ({ status, body });

export function adminActions({ participants, limits, funds, settlementModels, signatures }: AdminActionServices) {
  return {
    async createParticipant({ name, currency, baseUrl }: { name: string; currency: string } & Linked) {
      return answer(200, participantView(await participants.create(name, currency), baseUrl));
    },
    async setParticipantActive({ name, isActive, baseUrl }: { name: string; isActive: boolean } & Linked) {
      return answer(200, participantView(await participants.setActive(name, isActive), baseUrl));
    },
    async setEndpoint({ name, type, value }: { name: string; type: string; value: string }) {
      await participants.setEndpoint(name, type, value);
      return answer(201);
    },
    async initialPositionAndLimits({ name, ...request }: { name: string; currency: string; limit: { type: string; value: string }; initialPosition?: string }) {
      await limits.initialPositionAndLimits(name, request);
      return answer(201);
    },
    async adjustLimit({ name, currency, limit }: { name: string; currency: string; limit: { type: string; value: string; alarmPercentage: string } }) {
      return answer(200, limitView(await limits.adjust(name, currency, limit), false));
    },
    async createHubAccount({ name, currency, type, baseUrl }: { name: string; currency: string; type: string } & Linked) {
      return answer(200, participantView(await participants.createHubAccount(name, currency, type), baseUrl));
    },
    async setAccountActive({ name, accountId, isActive }: { name: string; accountId: number; isActive: boolean }) {
      await participants.setAccountActive(name, accountId, isActive);
      return answer(200, {});
    },
    /** A deposit or withdrawal, idempotent by its transferId: performed again, it moves nothing twice. */
    async moveFunds({ name, accountId, action, movement }: { name: string; accountId: number; action: FundsAction; movement: FundsMovementRequest }) {
      // Each action the validated body may name is the Funds method of that name (recordFundsOut: the hub's one-step funds out).
      await funds[action](name, accountId, movement);
      return answer(202);
    },
    async resolveFundsOut({
      name,
      accountId,
      transferId,
      action,
    }: {
      name: string;
      accountId: number;
      transferId: string;
      action: 'recordFundsOutCommit' | 'recordFundsOutAbort';
    }) {
      await funds[action](name, accountId, transferId);
      return answer(202);
    },
    async createSettlementModel({ model }: { model: SettlementModelRequest }) {
      await settlementModels.create(model);
      return answer(201);
    },
    async setSettlementModelActive({ name, isActive }: { name: string; isActive: boolean }) {
      return answer(200, settlementModelView(await settlementModels.setActive(name, isActive)));
    },
    async changeSignature({ name, change }: { name: string; change: SignatureChange }) {
      return answer(200, await signatures.change(name, change));
    },
  };
}
