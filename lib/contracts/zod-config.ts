/**
 * zod's object parser probes `Function("")` once to decide whether it may compile fast paths.
 * The Content-Security-Policy forbids eval (docs/decisions/030), so in the browser that probe is
 * refused and reported as a CSP violation on every page. `jitless` skips the probe and the
 * compiled paths; the contracts parse small bodies, where the difference does not show.
 * Imported (for this side effect) by every contract module, before any schema parses.
 */
import { z } from 'zod';

z.config({ jitless: true });
