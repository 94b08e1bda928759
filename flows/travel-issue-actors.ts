/*
 * travel-issue's actors: the packages, a quotation per package for the trip and party (the price
 * before paying), the payment of the chosen one, and the certificate of the policy paid for.
 */
import { fromPromise } from 'xstate';
import {
  type FlowDeps,
  keep,
  paymentActors,
  paymentObject,
  purchaseKeyOf,
  recordHolding,
} from './flow-deps.js';
import type {
  TravelCertificate,
  TravelCertificateInput,
  TravelPackage,
  TravelQuote,
  TravelQuoteRequest,
} from './travel-issue.js';

function splitName(name: string): { firstName: string; lastName: string } {
  const words = name.trim().split(/\s+/);
  const lastName = words.length > 1 ? (words.pop() ?? '') : '';
  return { firstName: words.join(' '), lastName };
}

/** The actors travel-issue invokes, over the Partner API and the payment service. */
export function travelIssueActors(deps: FlowDeps) {
  const { client } = deps;
  return {
    listPackages: fromPromise<TravelPackage[], Record<string, never>>(async () => {
      const page = await client.call('getTravelProducts', {
        query: { PageNumber: 1, PageSize: 6 },
      });
      // The product's region is not in the spec's shown fields: kept when the insurer sends one.
      return page.data.map((p) => {
        const region: unknown = (p as Record<string, unknown>).region;
        const listed = { id: String(p.id), name: p.name ?? `Travel ${p.id}` };
        return typeof region === 'string' && region !== '' ? { ...listed, region } : listed;
      });
    }),
    quoteTravel: fromPromise<TravelQuote[], { requests: TravelQuoteRequest[] }>(async ({ input }) =>
      Promise.all(
        input.requests.map(async (request) => {
          const quote = await client.call('createTravelQuotation', {
            body: {
              packageId: request.packageId,
              destination: request.destination,
              startDate: request.startDate,
              endDate: request.endDate,
              policyHolder: {
                clientType: 'Individual',
                name: request.holder.name,
                idType: 'NRC',
                idNumber: request.holder.nrc,
                ...(request.holder.phone ? { phone: request.holder.phone } : {}),
              },
              // Every traveller is a beneficiary, the holder first: the insurer prices the
              // cover per beneficiary, and "Cover for 2 travellers" must be priced for two.
              beneficiaries: [
                {
                  ...splitName(request.holder.name),
                  relationship: 'self',
                  idType: 'NRC',
                  idNumber: request.holder.nrc,
                },
                ...request.travellers.map((t) => ({
                  ...splitName(t.name),
                  relationship: t.relationship,
                })),
              ],
            },
          });
          const quoteId = String(quote.id);
          return {
            packageId: request.packageId,
            quoteId,
            premium: quote.grossPremium ?? quote.premium ?? 0,
            currency: quote.currency ?? 'ZMW',
            purchase: purchaseKeyOf(deps, `quote:${quoteId}`),
          };
        }),
      ),
    ),
    paymentMachine: paymentActors(deps, async (request, reference) =>
      client.call('payQuotation', {
        path: { quoteId: request.subject.kind === 'quote' ? request.subject.quoteId : '' },
        body: { reference, payment: paymentObject(request.payment, deps) },
      }),
    ),
    // The policy paid for, named by the payment's transaction: it exists only once paid.
    travelCertificate: fromPromise<TravelCertificate, TravelCertificateInput>(async ({ input }) => {
      let policyId = input.policyId ?? '';
      if (!policyId && input.reference) {
        const txn = await client.call('getTransaction', { path: { reference: input.reference } });
        policyId = txn.policyId ?? '';
      }
      if (!policyId) return {};
      const policy = await client.call('getTravelPolicy', { path: { policyId } });
      const ref = { line: 'travel' as const, policyId, number: policy.policyNumber };
      await recordHolding(deps, [
        { phone: input.holder?.phone || undefined, nrc: input.holder?.nrc || undefined, ref },
      ]);
      const url = await keep(
        deps,
        `travel-${policy.policyNumber ?? policyId}.pdf`,
        'application/pdf',
        client.download('getTravelPolicyCertificate', { path: { policyId } }),
      );
      const out: TravelCertificate = {
        policyId,
        startDate: (policy.startDate ?? '').slice(0, 10),
        endDate: (policy.endDate ?? '').slice(0, 10),
      };
      if (policy.policyNumber) out.policyNumber = policy.policyNumber;
      if (url) out.url = url;
      return out;
    }),
  };
}
