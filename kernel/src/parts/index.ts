export * from './loop/index.js';
