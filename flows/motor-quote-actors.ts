/*
 * motor-quote's actors: products, vehicles, pricing, policyholders, the quotation, renewal, the
 * payment of either, and the certificate of the policy paid for.
 */
import { fromPromise } from 'xstate';
import {
  accessTo,
  type CodeCheck,
  type CodeSubject,
  type Principal,
  phoneOf,
  phonesOnRecordForNrc,
} from '../src/access/index.js';
import { ApiError, type MotorPolicy, type PartnerClient } from '../src/api/index.js';
import type { TurnRoute } from '../src/conversation/flow.js';
import {
  type FlowDeps,
  keep,
  orNotFound,
  paymentActors,
  paymentObject,
  purchaseKeyOf,
  recordHolding,
  withinLimits,
} from './flow-deps.js';
import type {
  AlreadyCovered,
  HeldElsewhere,
  Holder,
  MotorCertificate,
  MotorCertificateInput,
  NewVehicle,
  OnRecordElsewhere,
  PlateQuery,
  RiskCategory,
  TellHolder,
} from './motor-quote.js';
import { ownerLookup } from './record-owners.js';
import { end } from './support.js';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A typed plate is a look-up: counted per caller, so plates cannot be tried in bulk. */
function plateLookup(deps: FlowDeps, input: PlateQuery): Promise<void> {
  return withinLimits(deps, {
    kind: 'lookup',
    principal: input.principal,
    route: input.route,
    target: { kind: 'plate', value: input.plate },
  });
}

/** The motor policies on a plate (none when the insurer has none). */
function platePolicies(client: PartnerClient, plate: string): Promise<MotorPolicy[]> {
  return orNotFound(
    client.call('getMotorPolicyByRegistration', { query: { registrationNumber: plate } }),
    [],
  );
}

/**
 * A policy the insurer issued, so paid for (the sandbox issues on payment): a draft or a quoted
 * one squats nothing (issue 35).
 */
const issued = (policy: MotorPolicy): boolean =>
  !/draft|quoted|pending|unpaid/i.test(text(policy.status));

/** The phones of a policy's holder: its client's and the policyholder's own. */
async function policyPhones(
  owners: ReturnType<typeof ownerLookup>,
  policy: MotorPolicy,
): Promise<string[]> {
  const clientId = text(policy.clientId);
  const holder = text(
    (policy as Record<string, unknown> & { policyHolder?: { phone?: unknown } }).policyHolder
      ?.phone,
  );
  const phones = clientId ? await owners.phonesOfClient(clientId) : [];
  return [...new Set([...phones, ...(holder ? [holder] : [])])];
}

/**
 * Phones on record for whoever holds a plate: the holders of the policies issued on it. A
 * vehicle registered by a quote never paid for makes nobody its holder: its owner may buy.
 */
async function platePhones(
  client: PartnerClient,
  plate: string,
  read?: readonly MotorPolicy[],
): Promise<string[]> {
  const owners = ownerLookup(client);
  // The policies on the plate as the caller just read them, else read now.
  const policies = read ?? (await platePolicies(client, plate));
  const phones = await Promise.all(policies.filter(issued).map((p) => policyPhones(owners, p)));
  return [...new Set(phones.flat())];
}

/** `…567`: enough of a phone for its owner to know it, nothing for anyone else. */
const maskedPhone = (phone: string): string => `…${phone.replace(/\D/g, '').slice(-3)}`;

/** Who asks for a code: the verified phone, else the conversation (a chat with no contact). */
function callerOf(principal: Principal, route: TurnRoute | undefined): string {
  const phone = phoneOf(principal);
  if (phone) return `phone:${phone.replace(/\D/g, '')}`;
  return route ? `${route.channel}:${route.address}` : 'unknown';
}

function addYear(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/** How long renewal premiums read ahead wait for the step that takes them. */
const AHEAD_MS = 60_000;
/** A policy's renewal premiums as the insurer answers them. */
type RenewalPremiums = Awaited<ReturnType<typeof renewalPremiumsOf>>;
/** Renewal premiums read ahead, per client, by policy id: each taken once, or dropped when stale. */
const premiumsAhead = new WeakMap<
  PartnerClient,
  Map<string, { readonly at: number; readonly premiums: Promise<RenewalPremiums> }>
>();

function renewalPremiumsOf(client: PartnerClient, policyId: string) {
  return client.call('getMotorRenewalPremiums', { path: { policyId } });
}

/** Starts reading a policy's renewal premiums now, for the step that will price its renewal. */
function readPremiumsAhead(client: PartnerClient, policyId: string): Promise<RenewalPremiums> {
  const ahead = premiumsAhead.get(client) ?? new Map();
  premiumsAhead.set(client, ahead);
  const now = Date.now();
  for (const [id, read] of ahead) if (now - read.at > AHEAD_MS) ahead.delete(id);
  const premiums = renewalPremiumsOf(client, policyId);
  // A failure is told by the step that takes the read (it awaits this same promise).
  premiums.catch(() => undefined);
  ahead.set(policyId, { at: now, premiums });
  return premiums;
}

/** Forgets a read ahead that no step may take (the caller may not renew that policy). */
function dropPremiumsAhead(
  client: PartnerClient,
  policyId: string,
  premiums: Promise<RenewalPremiums>,
): void {
  const ahead = premiumsAhead.get(client);
  if (ahead?.get(policyId)?.premiums === premiums) ahead.delete(policyId);
}

/** A policy's renewal premiums: the read started ahead for it when there is one, else read now. */
function premiumsReadAhead(client: PartnerClient, policyId: string): Promise<RenewalPremiums> {
  const ahead = premiumsAhead.get(client);
  const read = ahead?.get(policyId);
  ahead?.delete(policyId);
  return read && Date.now() - read.at <= AHEAD_MS
    ? read.premiums
    : renewalPremiumsOf(client, policyId);
}

/** The actors motor-quote invokes, over the Partner API and the payment service. */
export function motorQuoteActors(deps: FlowDeps) {
  return { ...pricingActors(deps), ...purchaseActors(deps), ...policyActors(deps) };
}

/**
 * What a caller learns of another holder's plate: only that, and whether we can tell them (the
 * first phone on record, as `tellHolder` does, which the caller's next turn may then SMS).
 */
function elsewhere(deps: FlowDeps, phones: string[], principal: Principal): HeldElsewhere {
  const [holder] = phones;
  if (deps.sms && holder && principal.kind === 'phone') deps.smsSoon?.(principal.phone, holder);
  return { heldElsewhere: true, canTell: deps.sms !== undefined && holder !== undefined };
}

/** Products, the vehicle behind a plate, risk categories and the price of cover. */
function pricingActors(deps: FlowDeps) {
  const { client } = deps;
  return {
    listProducts: fromPromise(async ({ input }: { input: { page: number; pageSize: number } }) => {
      const page = await client.call('getMotorProducts', {
        query: { PageNumber: input.page, PageSize: input.pageSize },
      });
      return {
        products: page.data.map((p) => ({
          id: String(p.id),
          name: p.name ?? `${p.productType ?? 'Motor'} ${p.id}`,
          needsSumInsured: (p.productType ?? '').toLowerCase() !== 'thirdparty',
        })),
        hasMore: page.pageNumber < page.totalPages,
      };
    }),
    // "Is ALB 2020 your Nissan Hardbody?" only to the phone on record for that car; "already
    // insured until" only to its holder; a payment of the caller's for it still being confirmed
    // stops a second purchase.
    findVehicle: fromPromise(async ({ input }: { input: PlateQuery }) => {
      await plateLookup(deps, input);
      if (
        input.route &&
        input.item &&
        (await deps.payments.unsettled?.(input.route, input.item, input.plate))
      ) {
        return { covered: 'unsettled' } satisfies AlreadyCovered;
      }
      // The vehicle first, alone: most plates typed are new, and need nothing more.
      const vehicles = await orNotFound(
        client.call('searchVehicleByRegistration', {
          query: { registrationNumber: input.plate },
        }),
        [],
      );
      const v = vehicles[0];
      if (!v) return null;
      const owners = ownerLookup(client);
      const vehiclePhones = text(v.clientId) ? await owners.phonesOfClient(text(v.clientId)) : [];
      const own = accessTo(input.principal, { type: 'vehicle', phones: vehiclePhones });
      if (own.learns !== 'everything') {
        const phones = await platePhones(client, input.plate);
        if (phones.length > 0) return elsewhere(deps, phones, input.principal);
        // A chat nobody vouches for may be the vehicle's own holder: asked to share its phone
        // first (its contact then decides), rather than taken for a new car's buyer.
        if (input.principal.kind === 'nobody' && vehiclePhones.length > 0) {
          return elsewhere(deps, vehiclePhones, input.principal);
        }
        // Registered by a quote nobody paid: not another holder's. The caller registers their
        // own vehicle when they pay (the insurer may refuse: then the staff desk).
        return null;
      }
      const policies = await platePolicies(client, input.plate);
      const inForce = policies.filter(
        (p) => /active/i.test(text(p.status)) && text(p.endDate).slice(0, 10) >= input.today,
      );
      for (const policy of inForce) {
        const phones = await policyPhones(owners, policy);
        if (accessTo(input.principal, { type: 'policy', phones }).learns === 'everything') {
          return {
            covered: 'insured',
            until: text(policy.endDate).slice(0, 10),
          } satisfies AlreadyCovered;
        }
      }
      return {
        vehicleId: String(v.id),
        ...(v.motorRiskCategoryId ? { riskCategoryId: v.motorRiskCategoryId } : {}),
        description: [v.make, v.model].filter(Boolean).join(' '),
      };
    }),
    listRiskCategories: fromPromise<RiskCategory[], Record<string, never>>(async () => {
      const categories = await client.call('getMotorRiskCategories');
      return categories.map((c) => ({ id: String(c.id), name: c.name }));
    }),
    priceMotor: fromPromise(
      async ({
        input,
      }: {
        input: {
          productId: string;
          riskCategoryId: string;
          sumInsured?: number;
          startDate: string;
        };
      }) => {
        const pricing = await client.call('getMotorPricing', {
          body: {
            productId: input.productId,
            riskCategoryId: input.riskCategoryId,
            startDate: input.startDate,
            // Comprehensive and TPFT pricing needs an end date; the options still come by duration.
            ...(input.sumInsured !== undefined
              ? { sumInsured: input.sumInsured, endDate: addYear(input.startDate) }
              : {}),
          },
        });
        return pricing.pricingOptions.map((o) => ({
          duration: o.duration,
          label: o.label,
          basic: o.basicPremium,
          levy: o.levyPremium,
          gross: o.grossPremium,
          currency: o.currency,
          ...(o.endDate ? { endDate: o.endDate.slice(0, 10) } : {}),
        }));
      },
    ),
  };
}

/** The policyholder and vehicle on record, and the quotation for them. */
function purchaseActors(deps: FlowDeps) {
  const { client } = deps;
  return {
    // A person's name only to their own phone. Anyone else registers the holder afresh, and
    // when the insurer holds the NRC typed with another phone on record, may first prove it by a
    // code sent to that phone (issue 35): its last digits only are shown.
    findHolder: fromPromise(
      async ({
        input,
      }: {
        input: { phone?: string; nrc?: string; principal: Principal };
      }): Promise<Holder | OnRecordElsewhere | null> => {
        const query = input.nrc ? { IdNumber: input.nrc } : { PhoneNumber: input.phone ?? '' };
        const page = await client.call('getIndividuals', {
          query: { ...query, PageSize: input.nrc ? 10 : 1 },
        });
        const found = input.nrc ? page.data.filter((h) => h.idNumber === input.nrc) : page.data;
        const holder = found.find(
          (h) =>
            accessTo(input.principal, { type: 'person', phones: [h.phoneNumber] }).learns ===
            'everything',
        );
        if (holder) {
          return {
            clientId: String(holder.id),
            name: [holder.firstName, holder.lastName].filter(Boolean).join(' '),
          };
        }
        if (!input.nrc || !deps.sms || !deps.oneTimeCodes || !deps.registrations) return null;
        const [onRecord] = await phonesOnRecordForNrc(found, deps.registrations);
        return onRecord ? { onRecordElsewhere: true, masked: maskedPhone(onRecord) } : null;
      },
    ),
    // Six digits to the first phone on record for the NRC, in its owner's language.
    sendCode: fromPromise(
      async ({
        input,
      }: {
        input: { nrc: string; principal: Principal; route?: TurnRoute };
      }): Promise<{ sent: boolean }> => {
        const codes = deps.oneTimeCodes;
        if (!codes || !deps.sms) return { sent: false };
        const [phone] = await ownerLookup(client, deps.registrations).phonesOfNrc(input.nrc);
        if (!phone) return { sent: false };
        const subject: CodeSubject = {
          nrc: input.nrc,
          caller: callerOf(input.principal, input.route),
        };
        const issued = await codes.issue(subject);
        if ('refused' in issued) return { sent: false };
        await deps.sms(phone, end('motor.sms.code', { code: issued.code }));
        return { sent: true };
      },
    ),
    checkCode: fromPromise(
      async ({
        input,
      }: {
        input: { nrc: string; code: string; principal: Principal; route?: TurnRoute };
      }): Promise<CodeCheck> => {
        if (!deps.oneTimeCodes) return { outcome: 'expired' };
        return deps.oneTimeCodes.check(
          { nrc: input.nrc, caller: callerOf(input.principal, input.route) },
          input.code,
        );
      },
    ),
    registerHolder: fromPromise(
      async ({
        input,
      }: {
        input: {
          firstName: string;
          lastName: string;
          phone: string;
          email: string;
          nrc: string;
          proven?: boolean;
        };
      }) => {
        const holder = await client.call('createIndividual', {
          body: {
            firstName: input.firstName,
            lastName: input.lastName,
            phoneNumber: input.phone,
            email: input.email,
            idNumber: input.nrc,
            idType: 'NRC',
          },
        });
        // A typed NRC proves nothing: this individual grants only the policies it buys, unless
        // the caller proved the NRC with a code sent to the phone on record for it.
        await deps.registrations?.recordCreated({
          clientId: String(holder.id),
          proven: input.proven === true,
        });
        return { clientId: String(holder.id), name: `${input.firstName} ${input.lastName}` };
      },
    ),
    // Only once the caller chose how to pay: an unpaid quote squats no plate. A plate the
    // insurer already holds (registered by a quote never paid) cannot be moved through the
    // spec: `blocked`, and the caller is offered the staff desk.
    registerVehicle: fromPromise(
      async ({
        input,
      }: {
        input: NewVehicle;
      }): Promise<{ vehicleId: string } | { blocked: true }> => {
        try {
          const vehicle = await client.call('createVehicle', {
            path: { id: input.clientId },
            body: {
              make: input.make,
              model: input.model,
              yearOfManufacture: input.year,
              registrationNumber: input.plate,
              chassisNumber: input.chassis,
              engineNumber: input.engine,
              motorRiskCategoryId: input.riskCategoryId,
            },
          });
          return { vehicleId: String(vehicle.id) };
        } catch (error) {
          if (error instanceof ApiError && error.status === 409) return { blocked: true };
          throw error;
        }
      },
    ),
    createQuote: fromPromise(
      async ({
        input,
      }: {
        input: {
          productId: string;
          duration: number;
          clientId: string;
          vehicleId: string;
          riskCategoryId: string;
          sumInsured?: number;
          startDate: string;
        };
      }) => {
        const quote = await client.call('createMotorQuotation', {
          body: {
            productId: input.productId,
            duration: input.duration,
            currency: 'ZMW',
            startDate: input.startDate,
            clientId: input.clientId,
            risks: [
              {
                vehicleId: input.vehicleId,
                // Required by the spec; a vehicle registered without one gets the picked category.
                ...(input.riskCategoryId ? { motorRiskCategoryId: input.riskCategoryId } : {}),
                ...(input.sumInsured !== undefined ? { sumInsured: input.sumInsured } : {}),
              },
            ],
          },
        });
        const quoteId = String(quote.id);
        return {
          quoteId,
          premium: quote.grossPremium ?? quote.premium,
          currency: quote.currency ?? 'ZMW',
          purchase: purchaseKeyOf(deps, `quote:${quoteId}`),
        };
      },
    ),
  };
}

/** Paying, the policy on a plate, its renewal and the certificate of the policy paid for. */
function policyActors(deps: FlowDeps) {
  const { client } = deps;
  return {
    // A quotation is paid through the quotation; a renewal through renew-and-pay, each attempt
    // under the reference the payment service made for it.
    paymentMachine: paymentActors(deps, async (request, reference) => {
      const payment = paymentObject(request.payment, deps);
      if (request.subject.kind === 'renewal') {
        return client.call('renewAndPayMotorPolicy', {
          path: { policyId: request.subject.policyId },
          body: { reference, payment },
        });
      }
      // The flow quotes before it pays (the child ends `chosen` for an unquoted price).
      if (request.subject.kind === 'unquoted') throw new Error('paying a price never quoted');
      return client.call('payQuotation', {
        path: { quoteId: request.subject.quoteId },
        body: { reference, payment },
      });
    }),
    // "Renew MTR-… ZMW …" only to the phone on record for the policy. The plate's policies are
    // read once; the holder's phones and the renewal premium then beside each other (issue 38),
    // the premium kept unseen for the next step, which takes it only for the policy allowed.
    findPolicy: fromPromise(async ({ input }: { input: PlateQuery }) => {
      await plateLookup(deps, input);
      const policies = await platePolicies(client, input.plate);
      const policy = policies.find((p) => /active/i.test(p.status)) ?? policies[0];
      if (!policy) return null;
      const policyId = String(policy.id);
      const ahead = readPremiumsAhead(client, policyId);
      const phones = await platePhones(client, input.plate, policies);
      if (accessTo(input.principal, { type: 'policy', phones }).learns !== 'everything') {
        dropPremiumsAhead(client, policyId, ahead);
        return elsewhere(deps, phones, input.principal);
      }
      return { policyId, policyNumber: policy.policyNumber ?? '' };
    }),
    // The holder hears that someone asked about their car; the asker learns nothing more.
    tellHolder: fromPromise(async ({ input }: { input: TellHolder }) => {
      const [phone] = await platePhones(client, input.plate);
      if (!deps.sms || !phone) return { told: false };
      // Counted per caller and per holder: a plate's holder is not texted without end.
      await withinLimits(deps, {
        kind: 'sms',
        principal: input.principal,
        route: input.route,
        target: { kind: 'phone', value: phone },
      });
      await deps.sms(phone, end(`motor.sms.asked.${input.mode}`, { plate: input.plate }));
      return { told: true };
    }),
    renewalPremiums: fromPromise(async ({ input }: { input: { policyId: string } }) => {
      const q = await premiumsReadAhead(client, input.policyId);
      return {
        gross: q.grossPremium,
        currency: q.currency ?? 'ZMW',
        startDate: (q.startDate ?? '').slice(0, 10),
        endDate: (q.endDate ?? '').slice(0, 10),
        purchase: purchaseKeyOf(deps, `renew:${input.policyId}`),
      };
    }),
    // The policy paid for: named by the payment (its transaction), never searched by plate, so
    // a second policy for the same vehicle ends with its own number and certificate. Every paid
    // motor purchase and renewal passes here, whether its outcome came in the turn or was pushed
    // later: the one place the holder's contact for renewal reminders is recorded.
    motorCertificate: fromPromise(
      async ({ input }: { input: MotorCertificateInput }): Promise<MotorCertificate> => {
        let policyId = input.policyId;
        if (!policyId && input.reference) {
          const txn = await client.call('getTransaction', { path: { reference: input.reference } });
          policyId = txn.policyId ?? undefined;
        }
        if (!policyId) return { policyNumber: '' };
        const policy = await client.call('getMotorPolicy', { path: { policyId } });
        const policyNumber = policy.policyNumber ?? '';
        const ref = { line: 'motor' as const, policyId, number: policyNumber };
        await recordHolding(deps, [{ ...input.holder, ref }]);
        const url = await keep(
          deps,
          `certificate-${policyNumber || policyId}.pdf`,
          'application/pdf',
          client.download('getMotorPolicyCertificate', { path: { policyId } }),
        );
        const out: MotorCertificate = { policyNumber };
        if (policy.startDate) out.startDate = policy.startDate.slice(0, 10);
        if (policy.endDate) out.endDate = policy.endDate.slice(0, 10);
        if (url) out.url = url;
        if (deps.reminders && input.route && out.endDate) {
          const { notice } = await deps.reminders.recordPurchase({
            route: input.route,
            policyId,
            policyNumber,
            what: input.what ?? '',
            endDate: out.endDate,
            renewal: input.renewal === true,
          });
          out.remindersNotice = notice;
        }
        return out;
      },
    ),
  };
}
