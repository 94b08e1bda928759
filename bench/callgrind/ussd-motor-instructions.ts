// Instructions per turn of the USSD motor journey (dial → Motor → New cover → … → the screen that
// asks how to pay, "… Pay with:") for insurechat's bench server and for the same-work floor, or
// for insurechat's bench server of this tree and of another checkout (CALLGRIND_MOTOR_AGAINST, a
// worktree of an earlier commit with its own node_modules: its own bench/servers/insurechat-server.ts
// and src run, as "base"), counted by callgrind, which the machine's load does not move. Run
// through `bench/callgrind/ussd-motor-instructions.sh`; not part of `npm run bench`.
//
// This process runs natively and drives the load; each server runs in a child process of its
// own under callgrind (CALLGRIND_WRAP), the sandbox insurer in another, native, so only the
// server's own instructions are counted, as the throughput section counts only its CPU. Both
// servers keep their sessions in the local Redis, as in the throughput section.
//
// The journey is a new customer's, a new phone each journey, buying for a car of its own: what
// it types is the shared test/support/motor-purchase-inputs.ts (the reliability tests' and the
// throughput section's walk), typed in its order until the screen asks how to pay, so the walk
// follows the purchase's order wherever that module does (the inputs left are not typed); a
// screen asked twice in a row (an input that did not answer it) or inputs that run out stop the
// count instead of measuring a wrong walk. Each phone's plate, car and NRC come from its number
// (a quotation may register the car to the phone that asked, and another holder's plate is not
// quoted to a phone), so the numbers count up from a random start, never one twice in a run.
// Against another checkout each tree walks its own journey (its own inputs module; the order or the
// number of screens may differ), checked against its own first walk and counted per its own
// turns; the run says whether the two showed the same screens.
// The harness, shared with the cover-by-NRC count, is ussd-instructions.ts.
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { motorPurchaseInputs } from '../../test/support/motor-purchase-inputs.js';
import { type Contender, countUssdInstructions } from './ussd-instructions.js';

const against = process.env.CALLGRIND_MOTOR_AGAINST;
const contender: Contender =
  against === undefined || against === '' || against === 'floor'
    ? { name: 'floor', entry: 'floor-server.ts' }
    : { name: 'base', entry: 'insurechat-server.ts', tree: against };

/** What a phone of another tree types: that tree's own inputs, in its own purchase order. */
const baseInputs: (msisdn: string) => string[] =
  contender.tree === undefined
    ? motorPurchaseInputs
    : (
        await import(
          pathToFileURL(join(contender.tree, 'test/support/motor-purchase-inputs.ts')).href
        )
      ).motorPurchaseInputs;

// `+26097SSSSSS0`: motorPurchaseInputs takes the six digits S, so they differ for every phone.
let serial = randomInt(100_000, 500_000);

await countUssdInstructions({
  walk: ({ name }) => {
    serial += 1;
    const msisdn = `+26097${serial}0`;
    const inputs = name === contender.name ? baseInputs(msisdn) : motorPurchaseInputs(msisdn);
    return { msisdn, inputs, until: 'Pay with:' };
  },
  contenders: [{ name: 'insurechat', entry: 'insurechat-server.ts' }, contender],
  endsOn: 'Pay with:',
  // Another commit's purchase may ask in another order: each tree walks its own, per turn.
  screens: contender.tree === undefined ? 'same' : 'own',
});
