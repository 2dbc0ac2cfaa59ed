import type { KeyObject } from 'node:crypto';
import type { Database } from '../db/database';
import { ParticipantJws } from '../db/entities';
import { HubError } from '../../shared/platform/hubError';
import type { JwsConfig } from '../../shared/platform/config';
import { publicKeyOf } from '../../shared/platform/jws';
import { directoryKey } from '../../shared/platform/jwsKeyDirectory';
import { findParticipant } from '../db/accounts';

/** How the gateway treats a participant's messages: validated or not, and the key to verify them with. */
export interface SignaturePolicy {
  validate: boolean;
  key?: KeyObject;
  /** Why there is no key to verify with (none registered, or one that is no RSA public key). */
  keyProblem?: string;
}

/** A participant's settings as the admin API shows them, and where each comes from. */
export interface SignatureSettings {
  validate: boolean;
  validateSource: 'participant' | 'scheme';
  publicKey: string | null;
  publicKeySource: 'database' | 'directory' | null;
}

/** What the admin API changes: a value sets it, null returns it to the scheme's (validate) or the directory's (publicKey). */
export interface SignatureChange {
  publicKey?: string | null;
  validate?: boolean | null;
}

/**
 * Participants' JWS public keys and whether their messages are validated. A key set through the admin API (the
 * database) supersedes the directory's `<fspId>.pem`, laid out as Mojaloop's SDK reads JWS_VERIFICATION_KEYS_DIRECTORY.
 * Every signed message needs its sender's key, so policies are cached, parsed, for `ttlMs`: a change through this
 * object applies at once, one made by another gateway process (or a file changed in the directory) within the TTL.
 */
export class ParticipantSignatures {
  private readonly cache = new Map<string, { policy: SignaturePolicy; expires: number }>();

  constructor(
    private readonly db: Database,
    private readonly config: Pick<JwsConfig, 'validate' | 'verificationKeysDirectory'>,
    private readonly ttlMs = 1000,
  ) {}

  async policyOf(name: string): Promise<SignaturePolicy> {
    const cached = this.cache.get(name);
    if (cached && cached.expires > Date.now()) return cached.policy;
    let settings: SignatureSettings;
    try {
      settings = await this.settings(name);
    } catch (error) {
      // An unreadable key file: refused as unsigned (400, 3105), not a 500 the sender would retry. Not cached.
      return { validate: true, keyProblem: (error as Error).message };
    }
    const policy: SignaturePolicy = { validate: settings.validate };
    if (!settings.publicKey) policy.keyProblem = `no public key is registered for ${name}`;
    else {
      try {
        policy.key = publicKeyOf(settings.publicKey, `the ${settings.publicKeySource} key of ${name}`);
      } catch (error) {
        policy.keyProblem = (error as Error).message;
      }
    }
    this.cache.set(name, { policy, expires: Date.now() + this.ttlMs });
    return policy;
  }

  /** A participant's settings; an unknown participant is 3200 (the admin API's 404). */
  async settingsOf(name: string): Promise<SignatureSettings> {
    await this.db.read((manager) => findParticipant(manager, name));
    return this.settings(name);
  }

  /** Registers or rotates a participant's key, or turns validation on or off for it; effective at once here. */
  async change(name: string, change: SignatureChange): Promise<SignatureSettings> {
    let publicKey = change.publicKey;
    if (publicKey) {
      try {
        // Kept as the key's own SPKI PEM, whatever else the text held around it.
        publicKey = publicKeyOf(publicKey).export({ type: 'spki', format: 'pem' }).toString();
      } catch (error) {
        throw new HubError('validationError', `publicKey: ${(error as Error).message}`);
      }
    }
    await this.db.transaction(async (manager) => {
      await findParticipant(manager, name);
      const changed = { ...change, ...(publicKey !== undefined && { publicKey }), changedDate: new Date() };
      if (await manager.existsBy(ParticipantJws, { name })) await manager.update(ParticipantJws, { name }, changed);
      else await manager.insert(ParticipantJws, { name, publicKey: null, validate: null, ...changed });
    });
    this.cache.delete(name);
    return this.settings(name);
  }

  private async settings(name: string): Promise<SignatureSettings> {
    const row = await this.db.read((manager) => manager.findOneBy(ParticipantJws, { name }));
    const fromDirectory = row?.publicKey ? null : await directoryKey(this.config.verificationKeysDirectory, name);
    return {
      validate: row?.validate ?? this.config.validate,
      validateSource: row?.validate == null ? 'scheme' : 'participant',
      publicKey: row?.publicKey ?? fromDirectory,
      publicKeySource: row?.publicKey ? 'database' : fromDirectory ? 'directory' : null,
    };
  }
}
