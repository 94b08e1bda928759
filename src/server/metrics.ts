import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** The Prometheus registry served at `GET /metrics`; its own, so tests and libraries do not collide. */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

/**
 * Counters and histograms other parts increment. Labels stay low-cardinality: channel, flow id,
 * outcome or operation name — never a session key, phone number or reference.
 */
export const metrics = {
  /** One per turn the engine answered. */
  turns: new Counter({
    name: 'insurechat_turns_total',
    help: 'Turns answered, by channel and flow.',
    labelNames: ['channel', 'flow'] as const,
    registers: [metricsRegistry],
  }),
  /** Time from a Reply arriving to its Prompt being ready. */
  turnLatency: new Histogram({
    name: 'insurechat_turn_duration_seconds',
    help: 'Turn latency in seconds, by channel and flow.',
    labelNames: ['channel', 'flow'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15],
    registers: [metricsRegistry],
  }),
  /** Payment outcomes delivered to users: paid, failed, pending (gave up waiting). */
  payments: new Counter({
    name: 'insurechat_payments_total',
    help: 'Payments by final outcome.',
    labelNames: ['outcome'] as const,
    registers: [metricsRegistry],
  }),
  /**
   * Failed exchanges with the insurer, one per attempt (a retried call can count more than once),
   * by operation and the error's stable code (`API_SERVER_ERROR`, `API_TIMEOUT`, `API_NETWORK`…).
   */
  upstreamErrors: new Counter({
    name: 'insurechat_upstream_errors_total',
    help: 'Failed Partner API attempts, by operation and error code.',
    labelNames: ['operation', 'code'] as const,
    registers: [metricsRegistry],
  }),
  /** Requests a channel refused (bad secret, IP not allowed, bad signature). */
  rejectedRequests: new Counter({
    name: 'insurechat_rejected_requests_total',
    help: 'Inbound requests refused by authentication, by channel and reason.',
    labelNames: ['channel', 'reason'] as const,
    registers: [metricsRegistry],
  }),
  /** Conversations handed to a person, by the customer's channel. */
  handoffsOpened: new Counter({
    name: 'insurechat_handoffs_opened_total',
    help: 'Handoffs to a person opened, by channel.',
    labelNames: ['channel'] as const,
    registers: [metricsRegistry],
  }),
  /** From a handoff opening to the first staff reply reaching the customer. */
  handoffFirstReply: new Histogram({
    name: 'insurechat_handoff_first_reply_seconds',
    help: 'Time from a handoff opening to the first staff reply, in seconds.',
    buckets: [15, 30, 60, 120, 300, 600, 1_800, 3_600, 14_400, 86_400],
    registers: [metricsRegistry],
  }),
  /** Handoffs ended: by staff (Resolve) or by the customer (/done, "End it and carry on"). */
  handoffsResolved: new Counter({
    name: 'insurechat_handoffs_resolved_total',
    help: 'Handoffs ended, by who ended them.',
    labelNames: ['by'] as const,
    registers: [metricsRegistry],
  }),
  /** Renewal reminders sent, by milestone (`14`, `3` days before the end) and channel. */
  remindersSent: new Counter({
    name: 'insurechat_renewal_reminders_sent_total',
    help: 'Renewal reminders sent, by milestone (days before the end of cover) and channel.',
    labelNames: ['milestone', 'channel'] as const,
    registers: [metricsRegistry],
  }),
  /** Renewals paid through insurechat for a period the holder was reminded about. */
  renewalsAfterReminder: new Counter({
    name: 'insurechat_renewals_after_reminder_total',
    help: 'Renewals paid for a period a reminder was sent about, by channel.',
    labelNames: ['channel'] as const,
    registers: [metricsRegistry],
  }),
  /**
   * Requests refused by a limit (src/limits), by kind (`sms`, `code`, `payment`, `lookup`) and by
   * which count refused (`caller`, `target`, or `error` when the limiter's store failed).
   */
  limitRefusals: new Counter({
    name: 'insurechat_limit_refusals_total',
    help: 'Requests refused by a limit, by kind and by which count refused.',
    labelNames: ['kind', 'scope'] as const,
    registers: [metricsRegistry],
  }),
};

/** The shape of {@link metrics}, for parts that take it as a dependency. */
export type Metrics = typeof metrics;
