import type { Logger } from 'pino';
import { AuthServiceConfig, loadConfig, HubConfig, TransactionRequestPolicy } from '../shared/platform/config';
import { TransactionDetails } from './conversations/transactionDetails';
import { createAgents } from '../shared/platform/fspiopHttp';
import { outboundCredentials } from '../shared/platform/tlsFiles';
import { CallbackSender } from './delivery/callbacks';
import { ParticipantDirectory } from './delivery/directory';
import { Database, openDatabase } from './db/database';
import { Funds } from './ledger/funds';
import { Ledger } from './ledger/ledger';
import { LedgerChecks } from './ledger/ledgerChecks';
import { Limits } from './ledger/limits';
import { Participants } from './participants/participants';
import { SettlementModels } from './participants/settlementModels';
import { ParticipantSignatures } from './participants/signatureKeys';
import { Settlements } from './settlement/settlements';
import { SettlementWindows } from './settlement/windows';
import { Notifications } from './notifications/notifications';
import { ledgerNotices } from './notifications/ledgerNotices';
import { ledgerTerms } from './settlement/ledgerTerms';
import { readSigningKey } from '../shared/platform/jws';
import { MessageLog } from './trace/messageLog';
import { Traces } from './trace/traces';
import { Approvals } from './approvals/approvals';
import { AuditTrail } from './audit/auditTrail';
import { SchemeGlances } from './metrics/schemeGlance';

/** The hub's stateful services over one database, wired once per process. */
export interface HubServices {
  db: Database;
  ledger: Ledger;
  participants: Participants;
  limits: Limits;
  funds: Funds;
  settlementModels: SettlementModels;
  transactions: TransactionDetails;
  signatures: ParticipantSignatures;
  settlementWindows: SettlementWindows;
  settlements: Settlements;
  notifications: Notifications;
  traces: Traces;
  /** Changes held for a second person (four eyes). */
  approvals: Approvals;
  /** Every change, decision and sign-in, append-only and hash-chained. */
  audit: AuditTrail;
  glance: SchemeGlances;
  /** The ledger's invariants checked from a checkpoint, and the alarm a violation raises. */
  ledgerChecks: LedgerChecks;
}

type ServicesConfig = Pick<HubConfig, 'databaseUrl' | 'hubParticipantName'> & Partial<Pick<HubConfig, 'newParticipantsActive' | 'jws' | 'smtp'>>;

/** Without settings of its own (tests, the benchmark), the hub neither validates nor signs. */
const NO_JWS = loadConfig({}).jws;

export async function openHubServices(config: ServicesConfig): Promise<HubServices> {
  const db = await openDatabase(config.databaseUrl, config.hubParticipantName);
  // The ledger is handed settlement's terms and who acts on its decisions: it imports neither.
  const notices = ledgerNotices(config.hubParticipantName);
  const ledger = new Ledger(db, ledgerTerms, notices);
  return {
    db,
    ledger,
    participants: new Participants(db, config.hubParticipantName, { createActive: config.newParticipantsActive ?? false }),
    limits: new Limits(db, ledger, config.hubParticipantName, notices),
    funds: new Funds(db, ledger, config.hubParticipantName),
    settlementModels: new SettlementModels(db),
    transactions: new TransactionDetails(db),
    signatures: new ParticipantSignatures(db, config.jws ?? NO_JWS),
    settlementWindows: new SettlementWindows(db),
    settlements: new Settlements(db, ledger, config.hubParticipantName),
    notifications: new Notifications(db, config.smtp),
    traces: new Traces(db),
    approvals: new Approvals(db),
    audit: new AuditTrail(db),
    glance: new SchemeGlances(db),
    ledgerChecks: new LedgerChecks(db, config.hubParticipantName),
  };
}

/** Everything a hub process runs on: its services, the participant directory and the sender of messages to DFSPs. */
export interface Hub {
  services: HubServices;
  directory: ParticipantDirectory;
  sender: CallbackSender;
  /** Every message the switch receives and delivers, for the operator's traces; none where MESSAGE_LOG is off. */
  messageLog?: MessageLog;
  transactionRequests: TransactionRequestPolicy;
  authService: AuthServiceConfig;
  log: Logger;
  close(): Promise<void>;
}

export interface HubOptions
  extends
    ServicesConfig,
    Partial<Pick<HubConfig, 'transactionRequests' | 'authService' | 'tls' | 'messageLog' | 'messageLogRetentionDays' | 'messageLogShare' | 'apiType'>> {
  log: Logger;
  /** How long participants and endpoints are cached (tests use 0, so admin changes apply at once). */
  directoryTtlMs?: number;
  /** How long one delivery to a DFSP may take. */
  deliveryTimeoutMs?: number;
}

/** The one wiring of a hub process, shared by the worker, the gateways, the tests and the benchmark. */
export async function openHub(options: HubOptions): Promise<Hub> {
  const agents = createAgents(outboundCredentials(options.tls));
  const services = await openHubServices(options);
  const directory = new ParticipantDirectory(services.db, options.directoryTtlMs);
  const signingKeyPath = options.jws?.signingKeyPath;
  const messageLog =
    options.messageLog === false
      ? undefined
      : new MessageLog(services.db, options.log, { retentionDays: options.messageLogRetentionDays, share: options.messageLogShare });
  messageLog?.startRetention();
  const sender = new CallbackSender({
    messageLog,
    directory,
    log: options.log,
    hubId: options.hubParticipantName,
    timeoutMs: options.deliveryTimeoutMs,
    agents,
    signingKey: signingKeyPath ? readSigningKey(signingKeyPath) : undefined,
    apiType: options.apiType,
  });
  // Without settings of its own (tests), the hub keeps transaction requests and its Auth service as the defaults say.
  const defaults = loadConfig({});
  const transactionRequests = options.transactionRequests ?? defaults.transactionRequests;
  const authService = options.authService ?? defaults.authService;
  const close = async () => {
    await messageLog?.close();
    await services.db.close();
  };
  return { services, directory, sender, messageLog, transactionRequests, authService, log: options.log, close };
}
