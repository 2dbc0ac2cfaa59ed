import { errorInformation } from '../../activities/shared/contracts/errors';
import { Inbox, kindsOn } from '../participant/inbox';
import { messages } from '../participant/participantProxies';
import { bank } from './thirdpartyProxies';

/**
 * `dfspAccounts/<userId>/<key>`: GET /accounts/{ID} (Document 1, discovery) answered from the bank: PUT /accounts/{ID}
 * with the accounts the user may link, or PUT …/error 6205 when there is no such user. A lookup decides nothing, but
 * its answer is a message like any other: as a workflow, a bank or switch that is briefly out of reach is retried
 * with backoff, and the answer survives a restart of the connector between the GET's acknowledgement and the PUT.
 */
export async function dfspAccounts(): Promise<'answered' | 'unknownUser' | 'notAsked'> {
  const asked = await new Inbox().next(kindsOn('accounts', 'get'), 60_000);
  if (!asked) return 'notAsked';
  const userId = asked.id!;
  const accounts = await bank.linkableAccounts(userId);
  const reply = { to: asked.source, resource: 'accounts' as const, id: userId };
  if (!accounts || accounts.length === 0) {
    await messages.sendToSwitch({ ...reply, name: 'error', body: { errorInformation: errorInformation('unknownUser', `no user ${userId}`) } });
    return 'unknownUser';
  }
  await messages.sendToSwitch({ ...reply, name: 'answer', body: { accounts } });
  return 'answered';
}
