/*
 * Who is on record for a record, found through the Partner API: the phones the access rule
 * (src/access) compares with the principal's. Actors describe a record with these and ask
 * `accessTo`; they never compare phones themselves.
 */

import {
  NO_REGISTRATIONS,
  phonesOnRecordForNrc,
  type RecordOwners,
  type Registrations,
} from '../src/access/index.js';
import type { Claim, PartnerClient } from '../src/api/index.js';
import type { ClaimLine } from './claim-intimation.js';
import { orNotFound } from './flow-deps.js';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * Looks people up once per actor call: a list of claims names the same borrower again and
 * again. Not shared between calls, so a phone changed on record counts at once.
 */
export interface OwnerLookup {
  /**
   * Phones on record for an NRC: the individuals the insurer holds with it, less those insurechat
   * created from an unproven typed NRC (src/access decides).
   */
  phonesOfNrc(nrc: string): Promise<string[]>;
  /** The phone on record for a client id. */
  phonesOfClient(clientId: string): Promise<string[]>;
  /**
   * Who is on record for a claim: the member's or the borrower's phones, and who intimated it.
   * `subjectNrc`, the NRC the insurer's loan or member record named, stands in for the claim's
   * own when the claim names none: the loan is then not read again.
   */
  claimOwners(line: ClaimLine, claim: Claim, subjectNrc?: string): Promise<RecordOwners>;
}

/** A fresh {@link OwnerLookup} over `client`; `registrations` names the unproven individuals. */
export function ownerLookup(client: PartnerClient, registrations?: Registrations): OwnerLookup {
  const byNrc = new Map<string, Promise<string[]>>();
  const byClient = new Map<string, Promise<string[]>>();
  const phonesOfNrc = (nrc: string): Promise<string[]> => {
    let found = byNrc.get(nrc);
    if (!found) {
      found = client
        .call('getIndividuals', { query: { IdNumber: nrc, PageSize: 10 } })
        .then((page) =>
          phonesOnRecordForNrc(
            page.data.filter((person) => person.idNumber === nrc),
            registrations ?? NO_REGISTRATIONS,
          ),
        );
      byNrc.set(nrc, found);
    }
    return found;
  };
  const phonesOfClient = (clientId: string): Promise<string[]> => {
    let found = byClient.get(clientId);
    if (!found) {
      found = orNotFound(client.call('getIndividual', { path: { id: clientId } }), null).then(
        (person) => (person?.phoneNumber ? [person.phoneNumber] : []),
      );
      byClient.set(clientId, found);
    }
    return found;
  };
  const claimOwners = async (
    line: ClaimLine,
    claim: Claim,
    subjectNrc?: string,
  ): Promise<RecordOwners> => {
    let nrc = text(claim.nrcNumber) || (subjectNrc ?? '');
    if (!nrc && line === 'credit-life' && claim.policyId && claim.loanId != null) {
      const loan = await orNotFound(
        client.call('getCoveredLoan', {
          path: { policyId: claim.policyId, loanId: String(claim.loanId) },
        }),
        null,
      );
      nrc = text(loan?.nrcNumber);
    }
    return {
      type: 'claim',
      phones: nrc ? await phonesOfNrc(nrc) : [],
      intimatedBy: text(claim.intimatedByPhone) || null,
    };
  };
  return { phonesOfNrc, phonesOfClient, claimOwners };
}
