// Instructions per turn of the USSD motor journey (dial → motor quote → plate → … → the payment
// confirmation screen, as the USSD throughput section walks it) for insurechat's bench server
// and for the same-work floor, counted by callgrind, which the machine's load does not move.
// Run through `bench/callgrind/ussd-motor-instructions.sh`; not part of `npm run bench`.
//
// This process runs natively and drives the load; each server runs in a child process of its
// own under callgrind (CALLGRIND_WRAP), the sandbox insurer in another, native, so only the
// server's own instructions are counted, as the throughput section counts only its CPU. Both
// servers keep their sessions in the local Redis, as in the throughput section.
//
// The journey is the seeded policyholder's, from her own phone: Motor → New cover → Third Party
// → Private → first period (priced) → plate AJQ 1909 → "Is AJQ 1909 your Toyota Corolla?" Yes →
// (her own number, not asked) "Policyholder: Mwila Banda. Correct?" Yes → "… Pay with:". Since issue 25 only the phone on
// record may insure a registered vehicle, so the throughput section's walk (a new phone each
// journey, the holder found by NRC) stops at the plate. The harness, shared with the cover-by-NRC
// count, is ussd-instructions.ts.
import { countUssdInstructions } from './ussd-instructions.js';

await countUssdInstructions({
  walk: { msisdn: '+260971234567', inputs: ['1', '1', '1', '1', '1', 'AJQ 1909', '1', '1'] },
  contenders: [
    { name: 'insurechat', entry: 'insurechat-server.ts' },
    { name: 'floor', entry: 'floor-server.ts' },
  ],
  endsOn: 'Pay with:',
});
