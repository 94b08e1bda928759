import type { AnyStateMachine } from 'xstate';
import { createFlowRegistry } from '../../flows/index.js';
import { today } from '../../flows/support.js';
import type { FlowId } from '../../src/conversation/flow.js';
import { SEED } from '../../src/sandbox/index.js';
import { type Impl, worldMachine } from './fixtures.js';
import type { SandboxWorld } from './sandbox-world.js';

/** How one model world is lined up with the sandbox. */
export interface AlignedWorld {
  /** Stand-ins that answer with what the sandbox holds (laid over the world's own). */
  readonly impl?: Impl;
  /** Typed answers rewritten per replayed path (`index`), so no path sees another's records. */
  readonly texts?: (index: number) => Record<string, string>;
  /** The USSD caller's number per path; its last digit chooses the sandbox's payment outcome. */
  readonly caller?: (index: number) => string;
}

/** Every model world lined up with one seeded sandbox. */
export interface SandboxAlignment {
  /** The aligned world of `flow` in `variant` (typical when the variant needs nothing more). */
  world(flow: FlowId, variant: string): AlignedWorld;
  /** The typical world of a flow, aligned (the screen a main-menu hand-over lands on). */
  machine(flow: FlowId): AnyStateMachine;
}

type PromiseLogic = { config: (args: Record<string, unknown>) => Promise<unknown> };

/** Calls a flow's production actor (the one the engine runs) once, outside any machine. */
function callActor(machine: AnyStateMachine, name: string, input: unknown): Promise<unknown> {
  const logic = (machine.implementations.actors as Record<string, PromiseLogic | undefined>)[name];
  if (!logic) throw new Error(`no actor ${name}`);
  return logic.config({ input, signal: new AbortController().signal, emit: () => {} });
}

const notFound = () => {
  throw Object.assign(new Error('not found'), { name: 'ApiError', code: 'API_ERROR', status: 404 });
};

/** A fresh plate, NRC and number per replayed path: registering one never changes another. */
const unique = (index: number) => String(10_000 + index).slice(1);

/**
 * Seeds `world`'s sandbox with what the walk needs (a motor policy on the seeded vehicle, for
 * renewal) and derives the model's stand-ins from the sandbox's answers, obtained through the very
 * actors the engine runs, so model and engine read the same records.
 */
export async function alignWorlds(world: SandboxWorld): Promise<SandboxAlignment> {
  const flows = createFlowRegistry({
    client: world.client,
    payments: { start: async () => ({ reference: 'unused', status: 'Pending' }) },
  });
  const motor = flows['motor-quote'].machine;
  const cover = flows['cover-status'].machine;
  const travel = flows['travel-issue'].machine;

  // A motor policy on the seeded vehicle, paid at once, so "renew my policy" finds it.
  const holder = (
    await world.client.call('getIndividuals', {
      query: { PhoneNumber: SEED.individual.phoneNumber, PageSize: 1 },
    })
  ).data[0];
  const [vehicle] = await world.client.call('searchVehicleByRegistration', {
    query: { registrationNumber: SEED.vehicle.registrationNumber },
  });
  if (!holder || !vehicle) throw new Error('the sandbox lost its seed');
  const quote = await world.client.call('createMotorQuotation', {
    body: {
      productId: '101',
      duration: 4,
      currency: 'ZMW',
      startDate: today(),
      clientId: String(holder.id),
      risks: [{ vehicleId: String(vehicle.id) }],
    },
  });
  await world.client.call('payQuotation', {
    path: { quoteId: String(quote.id) },
    body: { reference: `SEED-${String(quote.id)}`, payment: { method: 'External' } },
  });

  const page = (await callActor(motor, 'listProducts', { page: 1, pageSize: 5 })) as {
    products: { id: string; needsSumInsured: boolean }[];
  };
  const categories = await callActor(motor, 'listRiskCategories', {});
  const pricing = new Map<string, unknown>();
  for (const product of page.products) {
    pricing.set(
      product.id,
      await callActor(motor, 'priceMotor', {
        productId: product.id,
        riskCategoryId: 'mrc_private',
        startDate: today(),
        ...(product.needsSumInsured ? { sumInsured: 150_000 } : {}),
      }),
    );
  }
  const seededPlate = SEED.vehicle.registrationNumber;
  const policy = await callActor(motor, 'findPolicy', { plate: seededPlate });
  const renewal = policy
    ? await callActor(motor, 'renewalPremiums', {
        policyId: (policy as { policyId: string }).policyId,
      })
    : null;
  const uncategorised = await callActor(motor, 'findVehicle', { plate: SEED.uncategorisedPlate });
  const packages = await callActor(travel, 'listPackages', {});
  const funeral = await callActor(cover, 'lookupCover', { nrc: SEED.funeralPrincipalNrc });
  const stranger = await callActor(cover, 'lookupCover', { nrc: SEED.individual.idNumber });

  // Mobile-money payments in the sandbox come back pending and settle only when pushed.
  const pendingPay = (input: { reference?: string }) => ({
    reference: input.reference ?? 'PAY-q_1',
    status: 'pending',
  });
  const motorImpl: Impl = {
    listProducts: () => page,
    listRiskCategories: () => categories,
    priceMotor: (input: { productId: string }) => pricing.get(input.productId) ?? [],
    findPolicy: () => policy,
    renewalPremiums: () => renewal,
    startPayment: () => ({ reference: 'PAY-q_1', status: 'pending' }),
    paymentStatus: pendingPay,
    renewAndPay: () => ({ reference: 'RNW-1', status: 'pending' }),
  };
  const travelImpl: Impl = {
    listPackages: () => packages,
    issueTravel: (input: { reference: string; startDate: string }) => ({
      reference: input.reference,
      status: 'pending',
      policyId: '',
      policyNumber: '',
      startDate: input.startDate,
      endDate: '',
      grossPremium: 0,
      currency: 'ZMW',
    }),
    paymentStatus: pendingPay,
  };

  const worlds: Record<string, AlignedWorld> = {
    'motor-quote:typical': { impl: motorImpl },
    'motor-quote:unknownVehicleAndHolder': {
      // The plate is rewritten to one the sandbox does not know, renewal included.
      impl: { ...motorImpl, findPolicy: () => null },
      texts: (i) => ({ 'AJQ 1909': `ABZ ${unique(i)}`, '479974111': `11${unique(i)}111` }),
      caller: (i) => `09770${unique(i)}9`,
    },
    'motor-quote:vehicleWithoutCategory': {
      impl: { ...motorImpl, findVehicle: () => uncategorised, findPolicy: () => null },
      texts: () => ({ 'AJQ 1909': SEED.uncategorisedPlate }),
    },
    'travel-issue:typical': { impl: travelImpl },
    'cover-status:typical': {
      impl: { lookupCover: () => funeral },
      texts: () => ({ '479974111': SEED.funeralPrincipalNrc.replaceAll('/', '') }),
    },
    'cover-status:nothing': { impl: { lookupCover: () => stranger } },
    'claim-intimation:typical': {
      // The sandbox holds no covered loans or members: an intimation is answered 404.
      impl: { intimateClaim: notFound, trackClaims: () => [] },
    },
    'staff-desk:typical': {
      texts: () => ({ 'household 479974/11/1': `household ${SEED.funeralPrincipalNrc}` }),
    },
  };
  const world_ = (flow: FlowId, variant: string): AlignedWorld => {
    const base = worlds[`${flow}:typical`] ?? {};
    const own = worlds[`${flow}:${variant}`];
    return own ? { ...own, impl: { ...base.impl, ...own.impl } } : { impl: base.impl ?? {} };
  };
  return {
    world: world_,
    machine: (flow) => worldMachine(flow, { overrides: worlds[`${flow}:typical`]?.impl ?? {} }),
  };
}
