import type { ServiceType } from '../../shared/contracts/bodies';
import type { Requester } from '../../shared/contracts/followUps';
import type { AuthServiceConfig } from '../../shared/platform/config';
import type { CallbackSender } from '../delivery/callbacks';
import type { Database } from '../db/database';
import { Participant, ParticipantEndpoint } from '../db/entities';

/**
 * The endpoint that shows a participant takes a role: a third-party DFSP takes consent requests, a PISP takes the
 * DFSPs' authorization requests.
 */
const ROLE_ENDPOINTS = { THIRD_PARTY_DFSP: 'TP_CB_URL_CONSENT_REQUEST_POST', PISP: 'TP_CB_URL_TRANSACTION_REQUEST_AUTH_POST' } as const;

/**
 * GET /services/{ServiceType} (Document 1, pre-linking; "not shown" there): the switch answers itself, as Mojaloop's
 * thirdparty-api-svc does with its configured list, from what the participants registered instead of a list kept
 * by hand: the active participants with the role's endpoint, or the Auth service the hub hosts.
 */
export class ServiceProviders {
  constructor(
    private readonly db: Database,
    private readonly sender: CallbackSender,
    private readonly authService: AuthServiceConfig,
  ) {}

  async providers(serviceType: ServiceType): Promise<string[]> {
    if (serviceType === 'AUTH_SERVICE') return [this.authService.participantId];
    const rows = await this.db.read((manager) =>
      manager
        .createQueryBuilder(Participant, 'participant')
        .innerJoin(ParticipantEndpoint, 'endpoint', 'endpoint.participantId = participant.participantId')
        .where('endpoint.type = :type AND participant.isActive = :active', { type: ROLE_ENDPOINTS[serviceType], active: true })
        .orderBy('participant.name')
        .getMany(),
    );
    // A DFSP takes authorizations too when it links accounts of its own customers to a PISP it runs: it is no PISP.
    const dfsps = serviceType === 'PISP' ? new Set(await this.providers('THIRD_PARTY_DFSP')) : new Set<string>();
    return rows.map((row) => row.name).filter((name) => !dfsps.has(name));
  }

  /** PUT /services/{ServiceType} to the requester, from the switch; 7201 when nobody offers the service. */
  async answer(serviceType: ServiceType, requester: Requester): Promise<void> {
    const providers = await this.providers(serviceType);
    const common = { to: requester.source, method: 'PUT' as const, fromHub: { resource: 'services' as const, version: requester.version } };
    if (providers.length === 0) {
      const errorInformation = { errorCode: '7201', errorDescription: 'No thirdparty enabled FSP found' };
      await this.sender.send({ ...common, endpointType: 'TP_CB_URL_SERVICES_PUT_ERROR', path: `/services/${serviceType}/error`, body: { errorInformation } });
      return;
    }
    await this.sender.send({ ...common, endpointType: 'TP_CB_URL_SERVICES_PUT', path: `/services/${serviceType}`, body: { providers } });
  }
}
