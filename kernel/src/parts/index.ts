export * from './loop/index.js';
export * from './exploration/index.js';
export * from './web/index.js';

// Every error class this folder exports is frozen with its prototype before anything runs (see sealErrorClass).
import * as exported from './index.js';
import { sealErrorClasses } from '../core/index.js';
sealErrorClasses(exported);
