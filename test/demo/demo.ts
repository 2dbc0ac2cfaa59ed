/**
 * `npm run demo`: a whole scheme from this codebase on this machine, told on the terminal. It starts the hub (Temporal
 * dev server with its Web UI, worker and gateways), two DFSP connectors over simulated banks and a PISP connector, each
 * its own process as `npm run dfsp` / `npm run pisp` run them; onboards them through the admin API as an operator does;
 * then plays the PISP's app and its users: pre-linking, discovery, linking by OTP with a GENERIC credential and by WEB
 * with a FIDO credential (a software authenticator plays the user's device), a payment with each credential, a
 * rejected one, an unlinking and a payment refused after it; with positions before and after and a Temporal UI link for
 * every conversation; and at the end the operator settles the day (close the window, settle it, positions back to zero). Exits 0 only if every step ended as expected; `--stay` keeps the scheme up afterwards.
 */
import { participantWorkflowIds } from '../../activities/shared/contracts/peers';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import { adminCall, positionOf } from '../helpers/hubProcesses';
import { deferredNetModel, settleOpenWindow, type AdminCall } from '../helpers/settlementCycle';
import { PispApp, type Answer } from '../helpers/pispApp';
import { fspiopAt } from '../helpers/switchHarness';
import { SoftAuthenticator } from '../helpers/softAuthenticator';
import { startScheme, type Scheme } from './scheme';

const say = (message = '') => process.stdout.write(`${message}\n`);
const log = (message: string) => process.stderr.write(`${message}\n`);
const CURRENCY = 'USD';
const [DFSPA, DFSPB, PISP] = ['dfspa', 'dfspb', 'pispa'];

let failures = 0;

/** Prints a step's outcome; a step that did not end as Document 1 says counts as a failure. */
function check(what: string, ok: boolean, detail?: unknown): boolean {
  if (!ok) failures++;
  say(`  ${ok ? '✔' : '✘'} ${what}${ok || detail === undefined ? '' : `\n      ${JSON.stringify(detail)}`}`);
  return ok;
}

function links(scheme: Scheme, entries: Array<[string, string]>): void {
  for (const [namespace, workflowId] of entries) say(`      ${scheme.link(namespace, workflowId)}`);
}

async function positions(scheme: Scheme): Promise<Record<string, number>> {
  return { [DFSPA]: await positionOf(scheme.hub.adminUrl, DFSPA, CURRENCY), [DFSPB]: await positionOf(scheme.hub.adminUrl, DFSPB, CURRENCY) };
}

async function story(scheme: Scheme): Promise<void> {
  const { connectors } = scheme;
  const app = new PispApp(connectors[PISP].outboundUrl);
  const bank = (id: string) => ({ id, outboundUrl: connectors[id].outboundUrl });

  say('\n# The banks register their customers with the hub’s account lookup');
  for (const [dfsp, prefix] of [
    [DFSPA, '4470000001'],
    [DFSPB, '4470000002'],
  ]) {
    for (const msisdn of [`${prefix}1`, `${prefix}2`]) {
      const registered = await fspiopAt(scheme.hub.switchUrl, 'POST', `/participants/MSISDN/${msisdn}`, { source: dfsp, body: { fspId: dfsp } });
      check(`${dfsp} registers MSISDN ${msisdn}`, registered.status === 202, registered);
    }
  }

  say('\n# Pre-linking: which banks can the PISP link to?');
  const providers = await app.call('GET', '/linking/providers');
  check(
    `GET /linking/providers → ${JSON.stringify(providers.body?.providers)}`,
    [DFSPA, DFSPB].every((id) => providers.body?.providers?.includes(id)),
    providers.body,
  );

  say('\n# Linking: Alice at dfspa, by OTP, with a GENERIC credential the PISP keeps');
  const alice = await app.link(bank(DFSPA), `alice.${DFSPA}`, 'GENERIC');
  check(`Alice read the OTP on her phone; consent ${alice.consentId} VERIFIED, account ${alice.account} linked (${alice.channel})`, alice.channel === 'OTP');
  links(scheme, [
    [PISP, participantWorkflowIds.pispLinking(alice.consentRequestId)],
    [DFSPA, participantWorkflowIds.dfspLinking(alice.consentRequestId)],
    ['default', workflowIds.linking(alice.consentRequestId)],
    ['default', workflowIds.consent(alice.consentId)],
  ]);

  say('\n# Linking: Bob at dfspb, by WEB, with a FIDO credential made on his phone (a software authenticator)');
  const bobsPhone = await SoftAuthenticator.create({ origin: 'http://localhost:3000', rpId: 'localhost', format: 'packed' });
  const bob = await app.link(bank(DFSPB), `bob.${DFSPB}`, bobsPhone);
  check(`Bob signed in at dfspb's login page; consent ${bob.consentId} VERIFIED, account ${bob.account} linked (${bob.channel})`, bob.channel === 'WEB');
  links(scheme, [
    [PISP, participantWorkflowIds.pispLinking(bob.consentRequestId)],
    [DFSPB, participantWorkflowIds.dfspLinking(bob.consentRequestId)],
    ['default', workflowIds.consent(bob.consentId)],
  ]);

  const payment = async (
    title: string,
    payer: typeof alice,
    payerBank: string,
    payee: string,
    amount: string,
    decision: Parameters<PispApp['pay']>[3],
    expected: string,
  ) => {
    say(`\n# ${title}`);
    const before = await positions(scheme);
    const started = new Date().toISOString();
    const paid = await app.pay({ bank: payerBank, account: payer.account }, payee, amount, decision);
    const after = await positions(scheme);
    const status = paid.outcome.body?.transactionStatus;
    const got = status
      ? `${status.transactionRequestState}/${status.transactionState}`
      : `${paid.outcome.body?.currentState} ${paid.outcome.body?.errorInformation?.errorCode ?? ''}`.trim();
    check(`${got} (expected ${expected})`, got.startsWith(expected), paid.outcome.body);
    say(`      positions ${DFSPA} ${before[DFSPA]} → ${after[DFSPA]}, ${DFSPB} ${before[DFSPB]} → ${after[DFSPB]}`);
    links(scheme, [
      [PISP, participantWorkflowIds.pispTransaction(paid.transactionRequestId)],
      [payerBank, participantWorkflowIds.dfspThirdpartyTransaction(paid.transactionRequestId)],
      ['default', workflowIds.thirdpartyTransaction(paid.transactionRequestId)],
    ]);
    // The payer bank's transfer of it, if it made one: its trace in the operator's console.
    const [transfer] = (await adminCall(scheme.hub.adminUrl, 'GET', `/transfers?payerFsp=${payerBank}&fromDateTime=${started}&limit=1`)).body ?? [];
    say(`      ${transfer ? `${scheme.hub.adminUrl}/console#/transfers/${transfer.transferId}` : 'no transfer was made'}`);
    return paid;
  };

  await payment('Alice pays Bob 10 USD, signed with the GENERIC key', alice, DFSPA, '44700000022', '10', 'GENERIC', 'ACCEPTED/COMPLETED');
  await payment('Bob pays Alice 4 USD, signed on his phone (FIDO)', bob, DFSPB, '44700000011', '4', bobsPhone, 'ACCEPTED/COMPLETED');
  await payment('Alice starts a payment of 25 USD and rejects it', alice, DFSPA, '44700000022', '25', 'REJECTED', 'REJECTED');

  say('\n# Unlinking: Alice removes the PISP’s access to her account');
  const unlinked: Answer = await app.call('DELETE', `/linking/consents/${alice.consentId}`);
  check(
    `consent ${alice.consentId} ${unlinked.body?.consent?.status ?? unlinked.body?.currentState}`,
    unlinked.body?.consent?.status === 'REVOKED',
    unlinked.body,
  );
  await payment('A payment from the unlinked account is refused', alice, DFSPA, '44700000022', '3', 'GENERIC', 'errored');
}

async function main(): Promise<number> {
  const stay = process.argv.includes('--stay');
  say('Starting the hub, two DFSP connectors and a PISP connector (first run bundles their workflows)…');
  const scheme = await startScheme(
    [
      { role: 'dfsp', id: DFSPA, env: { SIMULATOR_MSISDN_PREFIX: '4470000001' } },
      { role: 'dfsp', id: DFSPB, env: { SIMULATOR_MSISDN_PREFIX: '4470000002' } },
      { role: 'pisp', id: PISP },
    ],
    CURRENCY,
    log,
  );
  try {
    say(`  hub: switch ${scheme.hub.switchUrl}, admin ${scheme.hub.adminUrl}, Temporal UI ${scheme.hub.temporal.uiUrl}`);
    say(`  the operator's console: ${scheme.hub.adminUrl}/console (each payment below links to its trace there)`);
    for (const connector of Object.values(scheme.connectors))
      say(`  ${connector.id} (${connector.role} connector): inbound ${connector.inboundUrl}, outbound ${connector.outboundUrl}, namespace ${connector.id}`);
    say(`  onboarded through the admin API: ${DFSPA} and ${DFSPB} with a Net Debit Cap of 10000 and 5000 ${CURRENCY} deposited; ${PISP} without funds`);
    const opening = await positions(scheme);
    await story(scheme);
    const closing = await positions(scheme);
    say(`\n# Positions at the hub: ${DFSPA} ${opening[DFSPA]} → ${closing[DFSPA]}, ${DFSPB} ${opening[DFSPB]} → ${closing[DFSPB]} ${CURRENCY}`);
    check('the positions still sum to zero', closing[DFSPA] + closing[DFSPB] === 0, closing);
    say('\n# Settlement: the operator closes the window and settles it (deferred net, over Mojaloop’s settlement API)');
    const admin: AdminCall = (method, path, body) => adminCall(scheme.hub.adminUrl, method, path, body);
    const settled = await settleOpenWindow(admin, await deferredNetModel(admin, CURRENCY), (line) => say(`  ${line}`));
    const after = await positions(scheme);
    check(
      `settlement ${settled.id} SETTLED, positions back to zero: ${DFSPA} ${after[DFSPA]}, ${DFSPB} ${after[DFSPB]}`,
      settled.state === 'SETTLED' && after[DFSPA] === 0 && after[DFSPB] === 0,
      after,
    );
    links(scheme, [['default', workflowIds.settlement(settled.id)]]);
    say(`\n${failures === 0 ? 'Every step ended as expected.' : `${failures} step(s) did not end as expected.`} Logs: ${scheme.hub.logDir}`);
    if (stay) {
      say('The scheme stays up (--stay): open the links above; Ctrl-C stops it.');
      await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
    }
  } catch (error) {
    failures++;
    say(`✘ the demo stopped: ${(error as Error).message}`);
  } finally {
    await scheme.stop();
  }
  return failures === 0 ? 0 : 1;
}

void main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(`demo: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
