import { describe, expect, it } from 'vitest';
import { createPhoneReach } from '../../src/claim-documents/index.js';
import { createMemoryStore } from '../../src/storage/index.js';

describe('phone reach', () => {
  const telegram = { channel: 'telegram', address: '7600001', locale: 'ny' } as const;
  const ussd = { channel: 'ussd', address: '260966345678', locale: 'en' } as const;

  it('keeps the last address a phone spoke from, whatever form the phone was written in', async () => {
    const reach = createPhoneReach(createMemoryStore(), 'test:');
    await reach.remember('+260966345678', ussd);
    await reach.remember('0966345678', telegram);
    expect(await reach.of('260966345678')).toEqual(telegram);
  });

  it('keeps nothing for a channel that cannot reach a person out of a turn', async () => {
    const reach = createPhoneReach(createMemoryStore(), 'test:');
    await reach.remember('260966345678', { channel: 'slack', address: 'T:C:U', locale: 'en' });
    expect(await reach.of('260966345678')).toBeUndefined();
  });

  it('forgets by the phone, and by the conversation that reached it only while it is the last', async () => {
    const store = createMemoryStore();
    const reach = createPhoneReach(store, 'test:');
    await reach.remember('260966345678', telegram);
    await reach.forgetAddress(telegram);
    expect(await reach.of('260966345678')).toBeUndefined();

    await reach.remember('260966345678', telegram);
    await reach.remember('260966345678', ussd);
    // The chat's "My data" leaves the phone's later conversation on USSD where it is.
    await reach.forgetAddress(telegram);
    expect(await reach.of('260966345678')).toEqual(ussd);
    await reach.forget('+260966345678');
    expect(await reach.of('260966345678')).toBeUndefined();
    expect(await store.get('test:phone-reach-of:{ussd:260966345678}')).toBeUndefined();
  });

  it('keeps no second key for an address that is the phone itself, and still forgets by it', async () => {
    const store = createMemoryStore();
    const reach = createPhoneReach(store, 'test:');
    await reach.remember('0966345678', ussd);
    expect(await store.get('test:phone-reach-of:{ussd:260966345678}')).toBeUndefined();
    expect(await reach.of('+260966345678')).toEqual(ussd);
    await reach.forgetAddress(ussd);
    expect(await reach.of('260966345678')).toBeUndefined();
  });

  it('forgets a USSD conversation written with its second key before that rule', async () => {
    const store = createMemoryStore();
    const reach = createPhoneReach(store, 'test:');
    await reach.remember('260966345678', ussd);
    await store.set('test:phone-reach-of:{ussd:260966345678}', '260966345678', 60);
    await reach.forgetAddress(ussd);
    expect(await reach.of('260966345678')).toBeUndefined();
    expect(await store.get('test:phone-reach-of:{ussd:260966345678}')).toBeUndefined();
  });

  it('forgets by a chat address only the phone whose last conversation it was', async () => {
    const store = createMemoryStore();
    const reach = createPhoneReach(store, 'test:');
    // A chat whose id reads like a phone number never erases that phone's own reach.
    const lookalike = { channel: 'telegram', address: '966345678', locale: 'en' } as const;
    await reach.remember('260966345678', ussd);
    await reach.forgetAddress(lookalike);
    expect(await reach.of('260966345678')).toEqual(ussd);
  });
});
