import { GATEWAY_SECRET } from './test-server.js';

/**
 * A caller on the server's Africa's Talking route with a random number ending in 5 (the
 * sandbox's payments from it succeed), or `from` (`+260…`): each dial is a new gateway session,
 * each answer is sent with the whole `*`-joined history, as the gateway does.
 */
export function ussdCaller(serverUrl: () => string, label = 'journey', from?: string) {
  const digits = String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0');
  const number = from ?? `+26097${digits}5`;
  let session = 0;
  let history: string[] = [];
  const post = async (text: string): Promise<string> => {
    const response = await fetch(`${serverUrl()}/ussd/africastalking`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-ussd-secret': GATEWAY_SECRET,
      },
      body: new URLSearchParams({
        sessionId: `${label}-${digits}-${session}`,
        serviceCode: '*384#',
        phoneNumber: number,
        text,
      }),
    });
    return response.text();
  };
  return {
    number,
    msisdn: number.slice(1),
    dial() {
      session += 1;
      history = [];
      return post('');
    },
    send(input: string) {
      history.push(input);
      return post(history.join('*'));
    },
    /** The gateway repeats the last request as it was. */
    repeat() {
      return post(history.join('*'));
    },
  };
}

/** One caller of {@link ussdCaller}. */
export type UssdCaller = ReturnType<typeof ussdCaller>;
