/*
 * Who reported each claim insurechat intimated, and the documents held back from a claim reported
 * by someone who is not on record for its member or borrower. A death claim may come from any
 * verified phone (a relative), so a false one with a fake certificate must not reach the insurer
 * on the reporter's word alone: while such a claim is "to verify", files are kept for it but not
 * posted; staff confirm it from the desk and the held files go then.
 */
import { z } from 'zod';
import { CHANNEL_NAMES } from '../conversation/index.js';
import { normaliseCaller } from '../msisdn/index.js';
import type { KeyValueStore } from '../storage/index.js';
import type { LinkedClaim } from './upload-links.js';

/** How long a claim's report and held files are kept: the life of a claim's file evidence. */
export const CLAIM_REPORT_TTL_SECONDS = 365 * 86_400;

/** Who reported a claim and where it stands with staff. */
export const ClaimReport = z.object({
  /** The printed claim number (GLC-…, CLC-…). */
  number: z.string(),
  /** The channel it was reported on (ussd, telegram, whatsapp…). */
  channel: z.string(),
  /** The reporter's verified phone (API form); null when none (staff never report here). */
  phone: z.string().nullable(),
  /** The reporter's phone is on record for the member or borrower: nothing to verify. */
  onRecord: z.boolean(),
  /** `to-verify` until staff confirm a claim reported by someone not on record. */
  state: z.enum(['own', 'to-verify', 'confirmed']),
  /** The Slack member who confirmed it, once confirmed. */
  confirmedBy: z.string().optional(),
  /**
   * Where the reporter is told of the claim's progress: the conversation they reported it in
   * (channel, address, language). Absent for reports made before it was kept, and after "My data".
   */
  reach: z
    .object({ channel: z.enum(CHANNEL_NAMES), address: z.string().min(1), locale: z.string() })
    .optional(),
});
/** Who reported a claim (see the schema). */
export type ClaimReport = z.infer<typeof ClaimReport>;

/** A report as intimation records it. */
export type NewClaimReport = Omit<ClaimReport, 'state' | 'confirmedBy'>;

/** The claim reports and held documents (see the module comment). */
export interface ClaimReports {
  /**
   * Records who reported `claim`, once: true when this call recorded it (its notices go then, so
   * a retried turn never texts the member twice), false when it was recorded already.
   */
  reported(claim: LinkedClaim, report: NewClaimReport): Promise<boolean>;
  /** The claim's report; undefined for a claim not intimated through insurechat. */
  of(claim: LinkedClaim): Promise<ClaimReport | undefined>;
  /** True while the claim's documents are held for staff to confirm. */
  toVerify(claim: LinkedClaim): Promise<boolean>;
  /**
   * Holds stored file `fileId` for the claim while it is to verify; false when the claim is not
   * to verify (the caller posts the file as usual).
   */
  hold(claim: LinkedClaim, fileId: string): Promise<boolean>;
  /** The files held for the claim, oldest first. */
  held(claim: LinkedClaim): Promise<string[]>;
  /**
   * Staff confirmed the claim: it is no longer to verify. Resolves the files still held (to
   * post, then {@link ClaimReports.posted}); undefined when the claim has no report.
   */
  confirm(claim: LinkedClaim, member: string): Promise<{ files: string[] } | undefined>;
  /** A held file was posted to the insurer: it is held no more. */
  posted(claim: LinkedClaim, fileId: string): Promise<void>;
  /**
   * "My data" for the reporter's phone: its number leaves every report it made. The reports stay,
   * phone-less, so a claim still to verify keeps holding documents (an erasure never lets a
   * reporter's files through unchecked). Resolves how many reports named the phone.
   */
  forget(phone: string): Promise<number>;
  /**
   * The claims whose reporter can be told of their progress (reported with a `reach`), as
   * `<line>:<claimId>`: one read for a whole pass over the insurer's claim books.
   */
  watched(): Promise<Set<string>>;
}

/** Claim reports on the key-value port, under `prefix`; each call touches one key per step. */
export function createClaimReports(store: KeyValueStore, prefix: string): ClaimReports {
  const reportKey = (claim: LinkedClaim) =>
    `${prefix}claim-report:{${claim.line}:${claim.claimId}}`;
  const heldKey = (claim: LinkedClaim) => `${prefix}claim-held:{${claim.line}:${claim.claimId}}`;
  // The claims each phone reported, for "My data": `<line>:<claimId>` members.
  const byPhoneKey = (phone: string) => `${prefix}claim-reporter:{${phone}}`;
  // The claims to follow for their reporter (see `watched`).
  const watchKey = `${prefix}claim-watch`;
  const read = async (claim: LinkedClaim): Promise<ClaimReport | undefined> => {
    const raw = await store.get(reportKey(claim));
    if (!raw) return undefined;
    const parsed = ClaimReport.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  };
  const toVerify = async (claim: LinkedClaim) => (await read(claim))?.state === 'to-verify';
  const heldFiles = async (claim: LinkedClaim) =>
    Object.entries(await store.hashGetAll(heldKey(claim)))
      .sort(([, a], [, b]) => a.localeCompare(b))
      .map(([id]) => id);
  return {
    async reported(claim, report) {
      const value: ClaimReport = { ...report, state: report.onRecord ? 'own' : 'to-verify' };
      const phone = report.phone ? normaliseCaller(report.phone) : undefined;
      // Indexed first: a report is never written that "My data" could not find.
      if (phone) {
        await store.setAdd(
          byPhoneKey(phone),
          `${claim.line}:${claim.claimId}`,
          CLAIM_REPORT_TTL_SECONDS,
        );
      }
      if (report.reach) {
        await store.setAdd(watchKey, `${claim.line}:${claim.claimId}`, CLAIM_REPORT_TTL_SECONDS);
      }
      return store.setIfAbsent(reportKey(claim), JSON.stringify(value), CLAIM_REPORT_TTL_SECONDS);
    },
    of: read,
    toVerify,
    async hold(claim, fileId) {
      if (!(await toVerify(claim))) return false;
      await store.hashSet(
        heldKey(claim),
        { [fileId]: new Date().toISOString() },
        CLAIM_REPORT_TTL_SECONDS,
      );
      // Confirmed meanwhile: its held files may have been read already, so this one is posted
      // by the caller (at worst twice; never left behind).
      return toVerify(claim);
    },
    held: heldFiles,
    async confirm(claim, member) {
      const report = await read(claim);
      if (!report) return undefined;
      if (report.state === 'to-verify') {
        const confirmed: ClaimReport = { ...report, state: 'confirmed', confirmedBy: member };
        await store.set(reportKey(claim), JSON.stringify(confirmed), CLAIM_REPORT_TTL_SECONDS);
      }
      // Forgotten one by one as each is posted: a post that fails leaves the rest held, and
      // confirming again posts them.
      return { files: await heldFiles(claim) };
    },
    async posted(claim, fileId) {
      await store.hashDelete(heldKey(claim), fileId);
    },
    async forget(phone) {
      const msisdn = normaliseCaller(phone);
      if (!msisdn) return 0;
      let forgotten = 0;
      for (const member of await store.setMembers(byPhoneKey(msisdn))) {
        const [line, ...id] = member.split(':');
        if (line !== 'credit-life' && line !== 'group-life') continue;
        const claim: LinkedClaim = { line, claimId: id.join(':') };
        const report = await read(claim);
        if (!report) continue;
        // The conversation's address goes too: a chat id or phone is the reporter's own data.
        const { reach: _reach, ...kept } = report;
        await store.set(
          reportKey(claim),
          JSON.stringify({ ...kept, phone: null }),
          CLAIM_REPORT_TTL_SECONDS,
        );
        forgotten += 1;
      }
      await store.delete(byPhoneKey(msisdn));
      return forgotten;
    },
    async watched() {
      return new Set(await store.setMembers(watchKey));
    },
  };
}
