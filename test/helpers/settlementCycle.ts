import { deferredNetModelBody } from './adminBodies';
import type { Database } from '../../activities/hub/db/database';
/** How a script calls the admin API: method, path, body; the answer's status and parsed body. */
export type AdminCall = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

const STEPS = ['PS_TRANSFERS_RECORDED', 'PS_TRANSFERS_RESERVED', 'PS_TRANSFERS_COMMITTED', 'SETTLED'];

async function expect(call: Promise<{ status: number; body: any }>, what: string): Promise<any> {
  const { status, body } = await call;
  if (status >= 300) throw new Error(`${what} answered ${status} ${JSON.stringify(body)}`);
  return body;
}

/** The active deferred net model for `currency`'s positions, created as `DEFERREDNET<currency>` if there is none. */
export async function deferredNetModel(admin: AdminCall, currency: string): Promise<string> {
  const models: any[] = await expect(admin('GET', '/settlementModels'), 'GET /settlementModels');
  const own = models.find(
    (model) => model.isActive && model.currency === currency && model.settlementGranularity === 'NET' && model.settlementDelay === 'DEFERRED',
  );
  if (own) return own.name;
  const name = `DEFERREDNET${currency}`;
  await expect(admin('POST', '/settlementModels', deferredNetModelBody(name, currency)), 'POST /settlementModels');
  return name;
}

/**
 * The model `body` describes, created if missing, then made active or inactive: how an operator moves a currency from
 * one settlement model to another (the model it leaves inactive, the one it goes to active).
 */
export async function modelActive(admin: AdminCall, body: { name: string }, isActive: boolean): Promise<void> {
  const created = await admin('POST', '/settlementModels', body);
  if (created.status !== 201 && !/already exists/.test(JSON.stringify(created.body)))
    throw new Error(`POST /settlementModels answered ${JSON.stringify(created.body)}`);
  await expect(admin('PUT', `/settlementModels/${body.name}`, { isActive }), `PUT /settlementModels/${body.name}`);
}

/**
 * An operator's settlement of the day, over Mojaloop's settlement API: close the open window, settle it under the
 * model, and move every account through RECORDED, RESERVED, COMMITTED and SETTLED. `say` tells each step, and
 * `afterStep` runs after each (a fault injected between two); the answer is the settlement as it ended.
 */
export async function settleOpenWindow(
  admin: AdminCall,
  model: string,
  say: (line: string) => void = () => undefined,
  afterStep: (state: string) => Promise<void> = async () => undefined,
): Promise<any> {
  const [open] = await expect(admin('GET', '/v2/settlementWindows?state=OPEN'), 'GET /v2/settlementWindows');
  const windowId = open.settlementWindowId;
  const opened = await expect(admin('POST', `/v2/settlementWindows/${windowId}`, { state: 'CLOSED', reason: 'end of day' }), 'closing the window');
  say(`window ${windowId} closed; window ${opened.settlementWindowId} is open`);
  let settlement = await expect(
    admin('POST', '/v2/settlements', { settlementModel: model, reason: 'end of day', settlementWindows: [{ id: windowId }] }),
    'POST /v2/settlements',
  );
  const nets = settlement.participants.flatMap((participant: any) =>
    participant.accounts.map((account: any) => `participant ${participant.id}: ${account.netSettlementAmount.amount} ${account.netSettlementAmount.currency}`),
  );
  say(`settlement ${settlement.id} of window ${windowId} (${model}): ${nets.join(', ')}`);
  for (const state of STEPS) {
    const participants = settlement.participants.map((participant: any) => ({
      id: participant.id,
      accounts: participant.accounts.map((account: any) => ({ id: account.id, state, reason: state })),
    }));
    await expect(admin('PUT', `/v2/settlements/${settlement.id}`, { participants }), `PUT ${state}`);
    settlement = await expect(admin('GET', `/v2/settlements/${settlement.id}`), 'GET /v2/settlements');
    say(`settlement ${settlement.id} → ${settlement.state}`);
    await afterStep(state);
  }
  return settlement;
}

/**
 * Runs `work` while no other test closes settlement windows. On a database every test file shares (MySQL) a test's
 * payments must stay in the window it closes, so closing is taken in turn under a named lock; a file's own SQLite
 * database has no one else to wait for.
 */
export async function closingWindowsInTurn<T>(db: Database, work: () => Promise<T>): Promise<T> {
  if (!db.isMysql) return work();
  const runner = db.dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query(`SELECT GET_LOCK('hub-tests-settlement-windows', 600)`);
    return await work();
  } finally {
    await runner.query(`SELECT RELEASE_LOCK('hub-tests-settlement-windows')`).catch(() => undefined);
    await runner.release();
  }
}
