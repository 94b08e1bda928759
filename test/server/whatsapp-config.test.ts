import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, loadConfig, WhatsAppEnv, whatsappConfigOf } from '../../src/server/config.js';

describe('the WhatsApp configuration', () => {
  const parse = (env: Record<string, string>) => whatsappConfigOf(z.object(WhatsAppEnv).parse(env));
  it('is off when nothing is set, names what is missing when part is, defaults the Graph API root', () => {
    expect(parse({})).toEqual({ config: undefined, missing: [] });
    expect(parse({ WHATSAPP_ACCESS_TOKEN: 't' }).missing).toEqual([
      'WHATSAPP_PHONE_NUMBER_ID',
      'WHATSAPP_APP_SECRET',
      'WHATSAPP_VERIFY_TOKEN',
    ]);
    const all = parse({
      WHATSAPP_PHONE_NUMBER_ID: '1',
      WHATSAPP_ACCESS_TOKEN: 't',
      WHATSAPP_APP_SECRET: 's',
      WHATSAPP_VERIFY_TOKEN: 'v',
    });
    expect(all.config?.apiUrl).toBe('https://graph.facebook.com/v21.0');
  });

  it('stops the server at start-up when only part of it is set, naming what is missing', () => {
    const partial = () => loadConfig({ WHATSAPP_PHONE_NUMBER_ID: '1', WHATSAPP_ACCESS_TOKEN: 't' });
    expect(partial).toThrow(ConfigError);
    expect(partial).toThrow(/WHATSAPP_APP_SECRET[\s\S]*WHATSAPP_VERIFY_TOKEN/);
    expect(loadConfig({}).config.whatsapp).toBeUndefined();
  });
});
