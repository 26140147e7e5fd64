export {
  DEFAULT_RESPONSE_HEADERS,
  WEB_FETCH_SIGNATURE,
  webFetchCapability,
  webFetchRequestSchema,
  type WebFetchCapabilityOptions,
  type WebFetchRequest,
} from './capability.js';
export { NodeWebFetchClient, type WebClientOptions, type WebClientRequest, type WebFetchClient, type WebFetchResult } from './client.js';
export { WebFetchFailedError, WebFetchFailure, WebPolicyRefusal, WebPolicyRefusedError, WebRedirectLimitError } from './errors.js';
export {
  describeWebRequest,
  isNonPublicAddress,
  normalizeWebUrl,
  webAddressPolicy,
  webUrlPolicy,
  type WebAddressCallback,
  type NormalizedWebRequest,
  type WebMethod,
  type WebPolicyCallback,
  type WebPolicyDecision,
  type WebUrlPolicy,
} from './policy.js';
