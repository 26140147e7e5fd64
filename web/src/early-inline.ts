/**
 * Inlined in index.html's head as a classic script (vite.config.ts builds it), so the page's first requests leave
 * while its scripts download: what they started waits on the window for early-requests.ts.
 */
import { EARLY_GLOBAL, startEarly } from './early-start.js';

(window as unknown as Record<string, unknown>)[EARLY_GLOBAL] = startEarly();
