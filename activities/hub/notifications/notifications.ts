import nodemailer, { type Transporter } from 'nodemailer';
import { EntityManager, In, IsNull, LessThanOrEqual, Not, Or } from 'typeorm';
import type { SetAsideEmail } from '../../shared/contracts/trace';
import type { SmtpConfig } from '../../shared/platform/config';
import type { Database } from '../db/database';
import { Notification, Participant, ParticipantEndpoint } from '../db/entities';
import type { Notice, NotificationType } from './notices';

/**
 * E-mails a participant can cause at will, by reserving and releasing around its alarm threshold: at most one about a
 * position waits to be sent to each address, and one is sent per BREACH_EMAIL_INTERVAL_MINUTES.
 */
const RATE_LIMITED: readonly string[] = ['NET_DEBIT_CAP_THRESHOLD_BREACH_EMAIL'] satisfies NotificationType[];

/** Refusals by the mail server before an e-mail is set aside; the wait after the first, doubling after each (half an hour in all). */
export const MAX_ATTEMPTS = 8;
const FIRST_RETRY_MS = 15_000;

/**
 * Queues the e-mails of an event about a participant in the caller's transaction, so they are queued exactly when the
 * change they tell of is made (once per crossing of a threshold, once per adjustment): the participant's, if it
 * registered an address of the notice's type, and the hub operator's, if the hub participant (`hubName`) did, as
 * central-event-processor tells both. An alarm about a position that already waits to be sent to an address is not
 * queued again: the waiting one is made to tell the latest figures instead.
 */
export async function notifyIn(manager: EntityManager, hubName: string, participantId: number, notice: (dfsp: string) => Notice): Promise<void> {
  const participant = await manager.findOneByOrFail(Participant, { participantId });
  const hub = await manager.findOneBy(Participant, { name: hubName });
  const { type, currency, subject, toParticipant, toHub } = notice(participant.name);
  const createdDate = new Date();
  for (const [addressee, body] of [
    [participant.participantId, toParticipant],
    [hub?.participantId, toHub],
  ] as const) {
    if (addressee === undefined || !(await manager.existsBy(ParticipantEndpoint, { participantId: addressee, type }))) continue;
    const about = { participantId: addressee, endpointType: type, aboutParticipantId: participantId, currency };
    const waiting =
      RATE_LIMITED.includes(type) &&
      (await manager.findOne(Notification, { where: { ...about, sentDate: IsNull(), setAsideDate: IsNull() }, select: { id: true } }));
    if (waiting) await manager.update(Notification, { id: waiting.id }, { subject, body });
    else await manager.insert(Notification, { ...about, subject, body, createdDate, sentDate: null });
  }
}

/**
 * Whether the mail server refused this e-mail (its recipient or its content), as it would not the next one; not when
 * the server could not be reached or refused the hub itself (its sender, its login), as it would every e-mail.
 */
function refusedMessage(error: unknown): error is Error & { response?: string } {
  const { code, command, responseCode } = error as { code?: string; command?: string; responseCode?: number };
  return (code === 'EENVELOPE' || code === 'EMESSAGE') && command !== 'MAIL FROM' && responseCode !== 421;
}

/**
 * The queued e-mails, sent through SMTP by the scheduled `sendNotifications` workflow: each run tries each e-mail due
 * once, so one the mail server refuses costs a run one attempt and holds up no other; after MAX_ATTEMPTS refusals
 * (counted across runs) it is set aside, for the operator to see on the console's alarms page.
 */
export class Notifications {
  private readonly transport?: Transporter;

  constructor(
    private readonly db: Database,
    private readonly smtp?: SmtpConfig,
  ) {
    this.transport = smtp && nodemailer.createTransport(smtp.url);
  }

  /** The IDs of e-mails due now, oldest first: not sent, not set aside, not waiting after a refusal or for an alarm's interval. */
  async pending(limit = 200): Promise<number[]> {
    const rows = await this.db.read((manager) =>
      manager.find(Notification, {
        where: { sentDate: IsNull(), setAsideDate: IsNull(), notBefore: Or(IsNull(), LessThanOrEqual(new Date())) },
        order: { id: 'ASC' },
        take: limit,
        select: { id: true },
      }),
    );
    return rows.map((row) => row.id);
  }

  /**
   * Tries one e-mail, to the participant's address of its type as it is now, and marks it sent; one already sent or
   * set aside is left alone. An address removed since is nobody to tell: the e-mail is marked sent unsent. A refusal
   * by the mail server is counted on the e-mail; a server out of reach is thrown, for the activity to retry.
   */
  async send(id: number): Promise<void> {
    const notification = await this.db.read((manager) => manager.findOneBy(Notification, { id }));
    if (!notification || notification.sentDate || notification.setAsideDate) return;
    if (!this.transport || !this.smtp) throw new Error('SMTP_URL is not set: no e-mail can be sent');
    const intervalEnd = await this.intervalEnd(notification, this.smtp.breachEmailIntervalMinutes);
    if (intervalEnd) return this.update(id, { notBefore: intervalEnd });
    const endpoint = await this.db.read((manager) =>
      manager.findOneBy(ParticipantEndpoint, { participantId: notification.participantId, type: notification.endpointType }),
    );
    if (endpoint) {
      try {
        await this.transport.sendMail({ from: this.smtp.from, to: endpoint.value, subject: notification.subject, text: notification.body });
      } catch (error) {
        if (!refusedMessage(error)) throw error;
        return this.refused(notification, error);
      }
    }
    await this.update(id, { sentDate: new Date() });
  }

  /** The e-mails set aside, latest first. */
  async setAside(limit = 100): Promise<SetAsideEmail[]> {
    return this.db.read(async (manager) => {
      const rows = await manager.find(Notification, { where: { setAsideDate: Not(IsNull()) }, order: { setAsideDate: 'DESC', id: 'DESC' }, take: limit });
      const ids = rows.flatMap((row) => [row.participantId, ...(row.aboutParticipantId === null ? [] : [row.aboutParticipantId])]);
      const names = new Map((await manager.findBy(Participant, { participantId: In(ids) })).map((p) => [p.participantId, p.name]));
      return rows.map((row) => ({
        id: row.id,
        to: names.get(row.participantId) ?? '?',
        type: row.endpointType,
        subject: row.subject,
        ...(row.aboutParticipantId !== null && { about: names.get(row.aboutParticipantId) ?? '?' }),
        ...(row.currency !== null && { currency: row.currency }),
        attempts: row.attempts,
        lastError: row.lastError ?? '',
        createdDate: row.createdDate.toISOString(),
        setAsideDate: row.setAsideDate!.toISOString(),
      }));
    });
  }

  /** When the interval of an alarm ends, if one like it (same address, participant and currency) was sent within it. */
  private async intervalEnd(notification: Notification, minutes: number): Promise<Date | undefined> {
    const { participantId, endpointType, aboutParticipantId, currency } = notification;
    if (!RATE_LIMITED.includes(endpointType) || aboutParticipantId === null || currency === null) return undefined;
    const last = await this.db.read((manager) =>
      manager.findOne(Notification, {
        where: { participantId, endpointType, aboutParticipantId, currency, sentDate: Not(IsNull()) },
        order: { sentDate: 'DESC' },
        select: { id: true, sentDate: true },
      }),
    );
    const end = last?.sentDate && new Date(last.sentDate.getTime() + minutes * 60_000);
    return end && end.getTime() > Date.now() ? end : undefined;
  }

  /** A refusal counted: tried again after a wait that doubles each time, or set aside after the last. */
  private refused(notification: Notification, error: Error & { response?: string }): Promise<void> {
    const attempts = notification.attempts + 1;
    const now = Date.now();
    return this.update(notification.id, {
      attempts,
      lastError: (error.response ?? error.message).slice(0, 500),
      ...(attempts >= MAX_ATTEMPTS ? { setAsideDate: new Date(now) } : { notBefore: new Date(now + FIRST_RETRY_MS * 2 ** (attempts - 1)) }),
    });
  }

  private async update(id: number, values: Partial<Notification>): Promise<void> {
    await this.db.transaction((manager) => manager.update(Notification, { id }, values));
  }
}
