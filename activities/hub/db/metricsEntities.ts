import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The decided transfers, counted as each is decided (activities/hub/metrics/schemeCounters.ts), so that a Prometheus
 * scrape reads a few rows per participant instead of the whole transfer table: how many of a payer's transfers became
 * COMMITTED or ABORTED within `le` seconds of their POST (and past the bucket below), and those seconds summed.
 */
@Entity('transfer_outcome')
export class TransferOutcome {
  @PrimaryColumn({ type: 'varchar', length: 32 }) payerFsp!: string;
  @PrimaryColumn({ type: 'varchar', length: 20 }) transferState!: string;
  /** The bucket's upper bound, as Prometheus writes it ('0.5', '+Inf'). */
  @PrimaryColumn({ type: 'varchar', length: 8 }) le!: string;
  @Column({ type: 'bigint' }) transfers!: string;
  @Column({ type: 'double' }) seconds!: number;
}

/** The deliveries the message log recorded as failed, counted per participant as they are written. */
@Entity('delivery_failure')
export class DeliveryFailures {
  @PrimaryColumn({ type: 'varchar', length: 32 }) participant!: string;
  @Column({ type: 'bigint' }) failures!: string;
}
