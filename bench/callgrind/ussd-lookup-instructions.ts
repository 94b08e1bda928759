// Instructions per turn of a USSD cover-by-NRC look-up (dial → My cover → Cover by NRC → a
// README person's NRC → "This NRC has cover until …") for insurechat's bench server with its
// limiter on the look-up's path, against the same server with the limiter off
// (BENCH_LIMITS=off: every count 0, so `take` counts nothing and calls Redis for nothing), counted
// by callgrind. Run through `bench/callgrind/ussd-lookup-instructions.sh`; not part of
// `npm run bench`.
//
// The caller is a phone on record nowhere typing the motor policyholder's NRC (479974/11/1), the
// look-up the limiter exists for: counted per caller, in the hour's and the day's window (a
// look-up has no per-target count by default), each one RateLimiterRedis `consume`, a Lua script
// on the local Redis. Raised so far (bench/servers/insurechat-server.ts) that it never refuses.
// The Redis round trip is not this process's instructions; the client's work (hashing the key,
// the command, its reply) is.
import { countUssdInstructions } from './ussd-instructions.js';

await countUssdInstructions({
  walk: () => ({ msisdn: '+260975550123', inputs: ['3', '1', '479974/11/1'] }),
  contenders: [
    { name: 'limiter', entry: 'insurechat-server.ts' },
    { name: 'nolimiter', entry: 'insurechat-server.ts', env: { BENCH_LIMITS: 'off' } },
  ],
  endsOn: 'This NRC has cover until',
});
