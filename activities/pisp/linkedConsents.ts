import type { Client } from '@temporalio/client';
import type { Scope } from '../shared/contracts/bodies';
import { Dfsp } from '../shared/contracts/searchAttributes';
import type { PispLinkingOutcome } from '../shared/contracts/pispLinking';

/** A consent a linking of this PISP was granted and had VERIFIED, with the accounts it covers. */
export interface LinkedConsent {
  consentId: string;
  dfsp: string;
  scopes: Scope[];
}

/** Search attribute values are quoted in a visibility query: an ID with a quote in it must not end the string. */
const quoted = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * Which consents this PISP holds, read from its own conversations in Temporal rather than kept in a worker's memory,
 * so that every worker, and a worker after a restart, knows them alike:
 *   - a pispLinking that reached accountsLinked (its Dfsp and ConsentId search attributes) holds the consent and its
 *     scopes in its result;
 *   - a pispUnlinking of the consent that reached consentRevoked (asked by the app, or the DFSP's own PATCH
 *     /consents/{ID} REVOKED) means it is revoked.
 */
export class LinkedConsents {
  constructor(private readonly client: Client) {}

  /** The DFSP that granted `consentId` to a linking of this PISP. */
  async dfspOf(consentId: string): Promise<string | undefined> {
    for await (const linking of this.client.workflow.list({ query: `WorkflowType = 'pispLinking' AND ConsentId = ${quoted(consentId)}` })) {
      const dfsp = linking.typedSearchAttributes.get(Dfsp);
      if (dfsp) return dfsp;
    }
    return undefined;
  }

  /**
   * The consent the DFSP verifies a payment from `account` against. An account linked more than once is covered by
   * several VERIFIED consents, and the authorization request does not say which one the DFSP will check the signature
   * with; a DFSP takes the first it granted that is still valid (this repository's DFSP connector does:
   * thirdpartySimulator consentForAccount), so the oldest unrevoked one is used here too.
   */
  async consentCovering(account: string, dfsp: string): Promise<LinkedConsent | undefined> {
    const linkings = [];
    for await (const linking of this.client.workflow.list({
      query: `WorkflowType = 'pispLinking' AND Dfsp = ${quoted(dfsp)} AND State = 'accountsLinked'`,
    }))
      linkings.push(linking);
    linkings.sort((a, b) => a.startTime.getTime() - b.startTime.getTime());
    for (const linking of linkings) {
      const outcome = (await this.client.workflow.getHandle(linking.workflowId, linking.runId).result()) as PispLinkingOutcome;
      if (!outcome.consentId || !outcome.scopes?.some((scope) => scope.address === account)) continue;
      if (await this.isRevoked(outcome.consentId)) continue;
      return { consentId: outcome.consentId, dfsp, scopes: outcome.scopes };
    }
    return undefined;
  }

  async isRevoked(consentId: string): Promise<boolean> {
    const query = `WorkflowType = 'pispUnlinking' AND ConsentId = ${quoted(consentId)} AND State = 'consentRevoked'`;
    return (await this.client.workflow.count(query)).count > 0;
  }
}
