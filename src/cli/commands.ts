import { buyerBuyCommands } from './buyer-buy.ts';
import { buyerDeviceCommands } from './buyer-devices.ts';
import { buyerLicenseCommands } from './buyer-license.ts';
import { buyerSessionCommands } from './buyer-session.ts';
import { buyerSubscriptionCommands } from './buyer-subscriptions.ts';
import { buyerTrialCommands } from './buyer-trial.ts';
import { fingerprintCommands } from './fingerprint.ts';
import { leaseCommands } from './lease.ts';
import type { Command } from './context.ts';
import { sellerApiKeyCommands } from './seller-api-keys.ts';
import { sellerAuthCommands } from './seller-auth.ts';
import { customerList } from './seller-customer-list.ts';
import { sellerLicenseCommands } from './seller-licenses.ts';
import { orderList, orderRefund } from './seller-order-list.ts';
import { sellerProductCommands } from './seller-products.ts';

/** Every command, in the order the help lists them. */
export const COMMANDS: readonly Command[] = [
  ...buyerSessionCommands,
  ...buyerBuyCommands,
  ...buyerTrialCommands,
  ...buyerLicenseCommands,
  ...buyerDeviceCommands,
  ...buyerSubscriptionCommands,
  ...leaseCommands,
  ...sellerAuthCommands,
  ...sellerProductCommands,
  ...sellerLicenseCommands,
  customerList,
  orderList,
  orderRefund,
  ...sellerApiKeyCommands,
  ...fingerprintCommands,
];
