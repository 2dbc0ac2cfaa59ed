import type { CallbackSender } from './callbacks';
import type { ParticipantDirectory } from './directory';
import type { HubServices } from './hub';

export interface ActivityDependencies {
  services: HubServices;
  directory: ParticipantDirectory;
  sender: CallbackSender;
  /** FSPIOP-Source of the callbacks the hub makes itself. */
  hubId: string;
}

/**
 * The worker's activities, made from their dependencies so tests hand in real or test ones
 * without module mocking. Every activity is idempotent: a retry changes nothing twice.
 */
export function createActivities({ services }: ActivityDependencies) {
  return {
    async checkDatabase(): Promise<string> {
      await services.db.manager.query('SELECT 1');
      return services.db.isMysql ? 'mysql' : 'sqlite';
    },
  };
}

export type HubActivities = ReturnType<typeof createActivities>;
