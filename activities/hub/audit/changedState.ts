import type { HubServices } from '../hubServices';

export type StateServices = Pick<HubServices, 'participants' | 'limits' | 'settlementModels' | 'signatures'>;
type Reader = (services: StateServices, params: Record<string, string>) => Promise<unknown>;

const limitsOf: Reader = async ({ limits }, { name }) => (await limits.forParticipant(name, {})).map(({ currency, limit }) => ({ currency, ...limit }));

/**
 * What a change touched, read the same way before it and after it, for the changes whose values matter to whoever
 * reads the audit trail later: activation of participants, accounts and settlement models, endpoints, limits (and the
 * initial position), signature keys. Keyed by method and route template (`PUT /participants/:name/limits`), so the
 * gateway reads them around a route without the route knowing, and an activity performing a held change reads them
 * around that change.
 */
const READERS: Record<string, Reader> = {
  'PUT /participants/:name': async ({ participants }, { name }) => ({ isActive: (await participants.get(name)).participant.isActive }),
  'PUT /participants/:name/accounts/:id': async ({ participants }, { name, id }) => {
    const account = (await participants.accounts(name)).find((candidate) => String(candidate.id) === id);
    return account && { currency: account.currency, ledgerAccountType: account.ledgerAccountType, isActive: account.isActive };
  },
  'POST /participants/:name/endpoints': async ({ participants }, { name }) => (await participants.endpoints(name)).map(({ type, value }) => ({ type, value })),
  'PUT /participants/:name/limits': limitsOf,
  'POST /participants/:name/initialPositionAndLimits': async (services, params) => ({
    limits: await limitsOf(services, params),
    positions: (await services.limits.positions(params.name)).map(({ currency, value }) => ({ currency, value })),
  }),
  'PUT /participants/:name/jws': ({ signatures }, { name }) => signatures.settingsOf(name),
  'PUT /settlementModels/:name': async ({ settlementModels }, { name }) => ({ isActive: (await settlementModels.get(name)).isActive }),
};

/** Whether the trail keeps the state before and after the change `METHOD template`. */
export const keepsState = (change: string): boolean => change in READERS;

/**
 * The state the change `METHOD template` touches, with the route's parameters; undefined where there is nothing to
 * read (a participant that does not exist: the change will fail) or the change is not one whose state is kept.
 */
export function changedState(services: StateServices, change: string, params: Record<string, string>): Promise<unknown> {
  const reader = READERS[change];
  return reader ? reader(services, params).catch(() => undefined) : Promise.resolve(undefined);
}
