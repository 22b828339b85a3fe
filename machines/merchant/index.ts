/** machines/merchant: a merchant account (one environment), its settings and API key hash. */
export { merchantMachine } from './merchant-machine.js';
export type {
  Environment,
  FeePayer,
  MerchantContext,
  MerchantEvent,
  MerchantInput,
  MerchantSettings,
  MerchantSettingsChanges,
  MerchantTier,
} from './merchant-machine.js';
