export * from './loop/index.js';
export * from './exploration/index.js';
export * from './web/index.js';
