/*
 * motor-quote's actors: products, vehicles, pricing, policyholders, the quotation, renewal, the
 * payment of either, and the certificate of the policy paid for.
 */
import { fromPromise } from 'xstate';
import { accessTo, type Principal } from '../src/access/index.js';
import type { MotorPolicy, PartnerClient, Vehicle } from '../src/api/index.js';
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
  HeldElsewhere,
  MotorCertificate,
  MotorCertificateInput,
  NewVehicle,
  PlateAsked,
  RiskCategory,
} from './motor-quote.js';
import { ownerLookup } from './record-owners.js';
import { end } from './support.js';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The vehicles registered under a plate, and the motor policies on it. */
async function plateRecords(
  client: PartnerClient,
  plate: string,
): Promise<{ vehicles: Vehicle[]; policies: MotorPolicy[] }> {
  const registrationNumber = plate;
  const [vehicles, policies] = await Promise.all([
    orNotFound(client.call('searchVehicleByRegistration', { query: { registrationNumber } }), []),
    orNotFound(client.call('getMotorPolicyByRegistration', { query: { registrationNumber } }), []),
  ]);
  return { vehicles, policies };
}

/** A typed plate is a look-up: counted per caller, so plates cannot be tried in bulk. */
function plateLookup(deps: FlowDeps, input: PlateAsked): Promise<void> {
  return withinLimits(deps, {
    kind: 'lookup',
    principal: input.principal,
    route: input.route,
    target: { kind: 'plate', value: input.plate },
  });
}

/** Phones on record for whoever holds a plate: its vehicle's client and its policies' holders. */
async function platePhones(client: PartnerClient, plate: string): Promise<string[]> {
  const owners = ownerLookup(client);
  const { vehicles, policies } = await plateRecords(client, plate);
  const clientIds = [
    ...vehicles.map((v) => text(v.clientId)),
    ...policies.map((p) => text(p.clientId)),
  ].filter(Boolean);
  const holders = policies.map((p) =>
    text(
      (p as Record<string, unknown> & { policyHolder?: { phone?: unknown } }).policyHolder?.phone,
    ),
  );
  const phones = (await Promise.all([...new Set(clientIds)].map(owners.phonesOfClient))).flat();
  return [...new Set([...phones, ...holders.filter(Boolean)])];
}

function addYear(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
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
    // "Is ALB 2020 your Nissan Hardbody?" only to the phone on record for that car.
    findVehicle: fromPromise(async ({ input }: { input: PlateAsked }) => {
      await plateLookup(deps, input);
      const found = await orNotFound(
        client.call('searchVehicleByRegistration', {
          query: { registrationNumber: input.plate },
        }),
        [],
      );
      const v = found[0];
      if (!v) return null;
      const phones = await platePhones(client, input.plate);
      if (accessTo(input.principal, { type: 'vehicle', phones }).learns !== 'everything') {
        return elsewhere(deps, phones, input.principal);
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
        }));
      },
    ),
  };
}

/** The policyholder and vehicle on record, and the quotation for them. */
function purchaseActors(deps: FlowDeps) {
  const { client } = deps;
  return {
    // A person's name only to their own phone: anyone else registers the holder afresh.
    findHolder: fromPromise(
      async ({ input }: { input: { phone?: string; nrc?: string; principal: Principal } }) => {
        const query = input.nrc ? { IdNumber: input.nrc } : { PhoneNumber: input.phone ?? '' };
        const page = await client.call('getIndividuals', { query: { ...query, PageSize: 1 } });
        const holder = page.data[0];
        if (!holder) return null;
        const person = { type: 'person' as const, phones: [holder.phoneNumber] };
        if (accessTo(input.principal, person).learns !== 'everything') return null;
        return {
          clientId: String(holder.id),
          name: [holder.firstName, holder.lastName].filter(Boolean).join(' '),
        };
      },
    ),
    registerHolder: fromPromise(
      async ({
        input,
      }: {
        input: { firstName: string; lastName: string; phone: string; email: string; nrc: string };
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
        // A typed NRC proves nothing: this individual grants only the policies it buys.
        await deps.registrations?.recordCreated({ clientId: String(holder.id), proven: false });
        return { clientId: String(holder.id), name: `${input.firstName} ${input.lastName}` };
      },
    ),
    registerVehicle: fromPromise(async ({ input }: { input: NewVehicle }) => {
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
    }),
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
      return client.call('payQuotation', {
        path: { quoteId: request.subject.quoteId },
        body: { reference, payment },
      });
    }),
    // "Renew MTR-… ZMW …" only to the phone on record for the policy.
    findPolicy: fromPromise(async ({ input }: { input: PlateAsked }) => {
      await plateLookup(deps, input);
      const policies = await orNotFound(
        client.call('getMotorPolicyByRegistration', {
          query: { registrationNumber: input.plate },
        }),
        [],
      );
      const policy = policies.find((p) => /active/i.test(p.status)) ?? policies[0];
      if (!policy) return null;
      const phones = await platePhones(client, input.plate);
      if (accessTo(input.principal, { type: 'policy', phones }).learns !== 'everything') {
        return elsewhere(deps, phones, input.principal);
      }
      return { policyId: String(policy.id), policyNumber: policy.policyNumber ?? '' };
    }),
    // The holder hears that someone asked about their car; the asker learns nothing more.
    tellHolder: fromPromise(
      async ({ input }: { input: PlateAsked & { mode: 'new' | 'renew' } }) => {
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
      },
    ),
    renewalPremiums: fromPromise(async ({ input }: { input: { policyId: string } }) => {
      const q = await client.call('getMotorRenewalPremiums', {
        path: { policyId: input.policyId },
      });
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
