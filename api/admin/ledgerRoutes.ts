import Router from '@koa/router';
import type { Database } from '../../activities/hub/db/database';
import { checkLedger } from '../../activities/hub/ledger/invariants';
import { needs } from './access/permissions';

/**
 * GET /ledger/invariants, an addition to central-ledger's admin API: checks the ledger's invariants now
 * (activities/hub/ledger/invariants.ts) and answers each, whether it holds, and the accounts that break it. An
 * auditor's read, as the audit trail's own check (GET /audit/verify) is: it answers 200 whatever it finds.
 */
export function ledgerRoutes({ db }: { db: Database }): Router {
  const router = new Router();
  router.get('/ledger/invariants', needs('audit'), async (ctx) => {
    ctx.body = await checkLedger(db);
  });
  return router;
}
