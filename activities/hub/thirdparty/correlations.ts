import crypto from 'node:crypto';
import type { Database } from '../db/database';
import { ThirdpartyCorrelation } from '../db/thirdpartyEntities';

/**
 * Which third-party transaction a message belongs to when its path does not say: an authorization's PUT names only
 * its authorizationRequestId, a verification only its own ID, its consent and its challenge. The gateway remembers the
 * link when the request passes and finds it again for the answer.
 */
export class Correlations {
  constructor(private readonly db: Database) {}

  /** A key already remembered keeps its transaction: a repeated request, even one racing the first, changes nothing. */
  async remember(keys: string[], transactionRequestId: string): Promise<void> {
    const createdDate = new Date();
    await this.db.transaction((manager) =>
      manager
        .createQueryBuilder()
        .insert()
        .into(ThirdpartyCorrelation)
        .values(keys.map((correlationKey) => ({ correlationKey, transactionRequestId, createdDate })))
        .orIgnore()
        .execute(),
    );
  }

  async transactionOf(key: string): Promise<string | undefined> {
    const row = await this.db.read((manager) => manager.findOneBy(ThirdpartyCorrelation, { correlationKey: key }));
    return row?.transactionRequestId;
  }
}

/** The keys messages are correlated by. A challenge is long and opaque: its digest stands for it. */
export const correlationKeys = {
  authorization: (authorizationRequestId: string) => `authorization:${authorizationRequestId}`,
  verification: (verificationRequestId: string) => `verification:${verificationRequestId}`,
  challenge: (challenge: string) => `challenge:${crypto.createHash('sha256').update(challenge).digest('hex')}`,
};
