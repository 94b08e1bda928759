import { addMonths, isoDate, parseDate } from './dates.js';
import { inWindow, type PageInput, paginate } from './paginate.js';
import { invalid, notFound, SandboxHttpError } from './sandbox-error.js';
import type { ClientRecord, Json, SandboxContext, VehicleRecord } from './state.js';

/** Normalises a plate for comparison: `ajq1909` and `AJQ 1909` are the same vehicle. */
export function plateKey(plate: string): string {
  return plate.replace(/[\s-]/g, '').toUpperCase();
}

function clientOfType(ctx: SandboxContext, id: string, type: ClientRecord['type']): ClientRecord {
  const client = ctx.state.clients.get(id);
  if (!client || client.type !== type)
    throw notFound(type === 'Individual' ? 'Individual' : 'Corporate', id);
  return client;
}

/** Any client by id (404 when missing). */
export function getClient(ctx: SandboxContext, id: string): ClientRecord {
  const client = ctx.state.clients.get(id);
  if (!client) throw notFound('Client', id);
  return client;
}

function definedFields(body: Json): Json {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

/** Registers an individual policyholder. */
export function createIndividual(ctx: SandboxContext, body: Json): ClientRecord {
  const now = ctx.clock.now().toISOString();
  const id = ctx.ids.next('cli');
  const client: ClientRecord = {
    ...definedFields(body),
    id,
    phoneNumber: String(body.phoneNumber ?? ''),
    email: String(body.email ?? ''),
    type: 'Individual',
    status: 'Active',
    createdAt: now,
    updatedAt: now,
  };
  ctx.state.clients.set(id, client);
  return client;
}

function assertUniqueRegistration(
  ctx: SandboxContext,
  registrationNumber: unknown,
  selfId?: string,
): void {
  if (typeof registrationNumber !== 'string' || registrationNumber === '') return;
  for (const client of ctx.state.clients.values()) {
    if (client.id !== selfId && client.registrationNumber === registrationNumber) {
      throw new SandboxHttpError(409, 'A client with this registration number already exists', {
        registrationNumber: ['Already registered'],
      });
    }
  }
}

/** Registers a corporate policyholder; 409 on a duplicate registration number. */
export function createCorporate(ctx: SandboxContext, body: Json): ClientRecord {
  assertUniqueRegistration(ctx, body.registrationNumber);
  const now = ctx.clock.now().toISOString();
  const id = ctx.ids.next('cli');
  const client: ClientRecord = {
    farms: [],
    dateOfBirth: null,
    ...definedFields(body),
    id,
    phoneNumber: String(body.phoneNumber ?? ''),
    email: String(body.email ?? ''),
    type: 'Corporate',
    status: 'Active',
    createdAt: now,
    updatedAt: now,
  };
  ctx.state.clients.set(id, client);
  return client;
}

/** Updates an individual's fields. */
export function updateIndividual(ctx: SandboxContext, id: string, body: Json): ClientRecord {
  const client = clientOfType(ctx, id, 'Individual');
  Object.assign(client, definedFields(body), { updatedAt: ctx.clock.now().toISOString() });
  return client;
}

/** Updates a corporate's fields; 409 when the new registration number is taken. */
export function updateCorporate(ctx: SandboxContext, id: string, body: Json): ClientRecord {
  const client = clientOfType(ctx, id, 'Corporate');
  assertUniqueRegistration(ctx, body.registrationNumber, id);
  Object.assign(client, definedFields(body), { updatedAt: ctx.clock.now().toISOString() });
  return client;
}

/** An individual by id. */
export function getIndividual(ctx: SandboxContext, id: string): ClientRecord {
  return clientOfType(ctx, id, 'Individual');
}

/** A corporate by id. */
export function getCorporate(ctx: SandboxContext, id: string): ClientRecord {
  return clientOfType(ctx, id, 'Corporate');
}

const INDIVIDUAL_FILTERS = ['FirstName', 'LastName', 'IdNumber', 'PhoneNumber', 'Email'] as const;

/** Lists clients of one type with the published filters (`Query` matches any text field). */
export function listClients(
  ctx: SandboxContext,
  type: ClientRecord['type'],
  query: PageInput & Record<string, unknown>,
): ReturnType<typeof paginate<ClientRecord>> {
  const contains = (value: unknown, needle: unknown): boolean =>
    typeof needle !== 'string' ||
    (typeof value === 'string' && value.toLowerCase().includes(needle.toLowerCase()));
  const items = [...ctx.state.clients.values()].filter((client) => {
    if (client.type !== type) return false;
    for (const filter of INDIVIDUAL_FILTERS) {
      const field = filter.charAt(0).toLowerCase() + filter.slice(1);
      if (!contains(client[field], query[filter])) return false;
    }
    if (typeof query.Query === 'string') {
      const text = Object.values(client)
        .filter((value) => typeof value === 'string')
        .join(' ')
        .toLowerCase();
      if (!text.includes(query.Query.toLowerCase())) return false;
    }
    if (!contains(client.name, query.Name)) return false;
    return true;
  });
  return paginate(inWindow(items, undefined, undefined), query);
}

/** Whether a vehicle is on an in-force motor policy right now. */
export function vehicleHasPolicy(ctx: SandboxContext, vehicle: VehicleRecord): boolean {
  return activeMotorPolicyFor(ctx, vehicle.registrationNumber) !== undefined;
}

/**
 * The newest in-force motor policy of a plate, if any: after a repeat purchase or a renewal the
 * latest policy is the one whose certificate the customer must receive.
 */
export function activeMotorPolicyFor(ctx: SandboxContext, registrationNumber: string) {
  const key = plateKey(registrationNumber);
  const today = isoDate(ctx.clock.now());
  // Policies are kept in the order they were issued, so the last match is the newest.
  return [...ctx.state.policies.values()].findLast(
    (policy) =>
      policy.line === 'motor' &&
      policy.status === 'Active' &&
      policy.endDate >= today &&
      policy.registrationNumbers.some((plate) => plateKey(plate) === key),
  );
}

/** A vehicle as returned, with its derived `hasPolicy`. */
export function vehicleView(ctx: SandboxContext, vehicle: VehicleRecord): Json {
  return { ...vehicle, hasPolicy: vehicleHasPolicy(ctx, vehicle) };
}

/** Registers a vehicle for a client; 409 on a duplicate registration number. */
export function createVehicle(ctx: SandboxContext, clientId: string, body: Json): Json {
  getClient(ctx, clientId);
  const plate = String(body.registrationNumber);
  if (
    [...ctx.state.vehicles.values()].some((v) => plateKey(v.registrationNumber) === plateKey(plate))
  ) {
    throw new SandboxHttpError(409, 'A vehicle with this registration number already exists', {
      registrationNumber: ['Already registered'],
    });
  }
  const now = ctx.clock.now().toISOString();
  const id = ctx.ids.next('veh');
  const vehicle: VehicleRecord = {
    ...definedFields(body),
    id,
    clientId,
    registrationNumber: plate,
    motorRiskCategoryId: String(body.motorRiskCategoryId ?? ''),
    createdAt: now,
    updatedAt: now,
  };
  ctx.state.vehicles.set(id, vehicle);
  return vehicleView(ctx, vehicle);
}

/** A client's vehicles, optionally only those with (`HasPolicy`) or without (`NoPolicy`) cover. */
export function listClientVehicles(
  ctx: SandboxContext,
  clientId: string,
  query: PageInput & { Filter?: string | undefined },
): ReturnType<typeof paginate<Json>> {
  getClient(ctx, clientId);
  const vehicles = [...ctx.state.vehicles.values()]
    .filter((vehicle) => vehicle.clientId === clientId)
    .filter((vehicle) => {
      if (query.Filter === 'HasPolicy') return vehicleHasPolicy(ctx, vehicle);
      if (query.Filter === 'NoPolicy') return !vehicleHasPolicy(ctx, vehicle);
      return true;
    })
    .map((vehicle) => vehicleView(ctx, vehicle));
  return paginate(vehicles, query);
}

/** The vehicle with a plate (404 when none). */
export function findVehicleByPlate(ctx: SandboxContext, registrationNumber: string): VehicleRecord {
  const key = plateKey(registrationNumber);
  const vehicle = [...ctx.state.vehicles.values()].find(
    (candidate) => plateKey(candidate.registrationNumber) === key,
  );
  if (!vehicle) throw notFound('Vehicle', registrationNumber);
  return vehicle;
}

/** A vehicle by id or plate. */
export function findVehicle(ctx: SandboxContext, idOrPlate: string): VehicleRecord {
  return ctx.state.vehicles.get(idOrPlate) ?? findVehicleByPlate(ctx, idOrPlate);
}

/** Insurance status of a vehicle (by id or plate). */
export function vehicleInsuranceStatus(ctx: SandboxContext, idOrPlate: string): Json {
  const vehicle = findVehicle(ctx, idOrPlate);
  const policy = activeMotorPolicyFor(ctx, vehicle.registrationNumber);
  return {
    registrationNumber: vehicle.registrationNumber,
    insured: policy !== undefined,
    policyId: policy?.id ?? null,
    policyNumber: policy?.policyNumber ?? null,
    status: policy ? 'Insured' : 'NotInsured',
    endDate: policy?.endDate ?? null,
  };
}

/**
 * Road-transport-authority anniversary dates: road tax runs by calendar quarter from the
 * vehicle's registration, so the next four quarterly anniversaries from today.
 */
export function vehicleAnniversaryDates(ctx: SandboxContext, idOrPlate: string): Json {
  const vehicle = findVehicle(ctx, idOrPlate);
  const registered = parseDate(String(vehicle.createdAt ?? '')) ?? ctx.clock.now();
  const today = ctx.clock.now();
  let next = registered;
  while (next <= today) next = addMonths(next, 3);
  const anniversaryDates = [0, 3, 6, 9].map((months) => isoDate(addMonths(next, months)));
  return { registrationNumber: vehicle.registrationNumber, anniversaryDates };
}

/** Throws 400 when `value` is not a date. */
export function requireDate(value: string, field: string): Date {
  const at = parseDate(value);
  if (!at) throw invalid('Validation failed', { [field]: ['Expected a date'] });
  return at;
}
