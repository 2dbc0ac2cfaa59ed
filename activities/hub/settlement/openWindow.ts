import type { EntityManager } from 'typeorm';
import { HubError } from '../../shared/platform/hubError';

/**
 * The open settlement window, read inside a commit's transaction so the committed payments are put in it. On MySQL
 * the read takes a shared lock on the window: commits go on side by side, and a close (which updates the window's row)
 * waits until every commit holding it has finished, so no payment lands in a window after it closed. SQLite runs one
 * writer at a time, which gives the same order.
 */
export async function openWindowIdIn(manager: EntityManager): Promise<number> {
  const shared = manager.connection.options.type === 'mysql' ? ' LOCK IN SHARE MODE' : '';
  const rows: Array<{ settlementWindowId: number }> = await manager.query(
    `SELECT settlementWindowId FROM settlement_window WHERE state = 'OPEN' ORDER BY settlementWindowId DESC LIMIT 1${shared}`,
  );
  if (rows.length === 0) throw new HubError('internalServerError', 'no settlement window is open');
  return Number(rows[0].settlementWindowId);
}
