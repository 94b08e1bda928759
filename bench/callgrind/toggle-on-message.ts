// Preloaded (`--import`) into a bench server child run under callgrind, so the server files stay
// as they are: the bench switches collection on around a measured block and dumps it under a
// label through the child's IPC channel, and each request is acknowledged once done.
import { z } from 'zod';
import { exposedGc, loadCallgrindAddon } from './callgrind-addon.js';

/** What the bench asks of the measured child. */
const CallgrindMessage = z.object({
  type: z.literal('callgrind'),
  id: z.number(),
  /**
   * `start`: a full GC outside the block, then collection on; `stop`: off, then dump; `step`:
   * collection on without a GC (one turn counted on its own, GC where it falls).
   */
  action: z.enum(['start', 'stop', 'step']),
  label: z.string().default(''),
});

const callgrind = loadCallgrindAddon();
const gc = exposedGc();
process.on('message', (raw) => {
  const parsed = CallgrindMessage.safeParse(raw);
  if (!parsed.success) return;
  const { id, action, label } = parsed.data;
  if (action === 'start' || action === 'step') {
    if (action === 'start') gc();
    callgrind.toggle();
  } else {
    callgrind.toggle();
    callgrind.dump(label);
  }
  process.send?.({ type: 'ack', id });
});
