import Router from '@koa/router';
import type { Database } from '../../activities/hub/db/database';
import { checkLedger } from '../../activities/hub/ledger/invariants';
import type { LedgerChecks } from '../../activities/hub/ledger/ledgerChecks';
import { HubError } from '../../activities/shared/platform/hubError';
import { needs } from './access/permissions';

/**
 * The ledger's checks, additions to central-ledger's admin API (activities/hub/ledger/invariants.ts states the
 * invariants). GET /ledger/invariants checks the whole ledger now and answers each invariant, whether it holds, and
 * the accounts that break it; an auditor's read, as the audit trail's own check (GET /audit/verify) is: it answers 200
 * whatever it finds. POST /ledger/checks runs the scheduled check now (from its checkpoint; `?full=true` reads the whole
 * ledger; as every POST it says Content-Type application/json, its body is not read), raising its alarm if it finds one, and answers its outcome; GET /ledger/checks/latest answers the latest
 * check's, which the console's alarms page shows to whoever may read positions.
 */
export function ledgerRoutes({ db, ledgerChecks }: { db: Database; ledgerChecks: LedgerChecks }): Router {
  const router = new Router();
  router.get('/ledger/invariants', needs('audit'), async (ctx) => {
    ctx.body = await checkLedger(db);
  });
  router.post('/ledger/checks', needs('audit'), async (ctx) => {
    const { full } = ctx.query;
    if (full !== undefined && full !== 'true' && full !== 'false') throw new HubError('validationError', 'full must be true or false');
    ctx.body = await ledgerChecks.run(full === undefined ? {} : { full: full === 'true' });
  });
  router.get('/ledger/checks/latest', needs('read'), async (ctx) => {
    const latest = await ledgerChecks.latest();
    if (!latest) throw new HubError('idNotFound', 'The ledger has not been checked yet');
    ctx.body = latest;
  });
  return router;
}
