import crypto from 'node:crypto';
import { ConnectorConfig, loadConnectorConfig } from '../connector/connectorConfig';

/** A PISP connector's settings: every connector's, and the secret its GENERIC keys are derived from. */
export interface PispConfig extends ConnectorConfig {
  /**
   * GENERIC_KEY_SECRET: each consent's GENERIC key is derived from it (GenericSigner.derived), so keep it as a
   * private key is kept. Without it a random one is made at start, and keys do not survive a restart.
   */
  genericKeySecret?: string;
}

export function loadPispConfig(env: NodeJS.ProcessEnv = process.env): PispConfig {
  return { ...loadConnectorConfig('pisp', env), genericKeySecret: env.GENERIC_KEY_SECRET || undefined };
}

/** The configured secret, or a random one for this process only. */
export function genericKeySecretOf(config: PispConfig): { secret: string; ephemeral: boolean } {
  return config.genericKeySecret
    ? { secret: config.genericKeySecret, ephemeral: false }
    : { secret: crypto.randomBytes(32).toString('base64'), ephemeral: true };
}
