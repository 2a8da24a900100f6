CREATE TABLE `developer_customers` (
	`developer_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`email` text NOT NULL,
	`first_seen_at` integer NOT NULL,
	PRIMARY KEY(`developer_id`, `customer_id`),
	FOREIGN KEY (`developer_id`) REFERENCES `developers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `developer_customers_email` ON `developer_customers` (`developer_id`,`email`);--> statement-breakpoint
CREATE INDEX `developer_customers_order` ON `developer_customers` (`developer_id`,`first_seen_at`,`customer_id`);--> statement-breakpoint
CREATE TABLE `orders` (
	`id` text PRIMARY KEY NOT NULL,
	`developer_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`product_id` text NOT NULL,
	`license_id` text NOT NULL,
	`source` text NOT NULL,
	`source_id` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`processor` text NOT NULL,
	`payment_id` text,
	`processor_reference` text,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`refunded_at` integer,
	FOREIGN KEY (`developer_id`) REFERENCES `developers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_source_id_unique` ON `orders` (`source_id`);--> statement-breakpoint
CREATE INDEX `orders_developer_order` ON `orders` (`developer_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `orders_payment` ON `orders` (`payment_id`);--> statement-breakpoint
CREATE INDEX `orders_license` ON `orders` (`license_id`);--> statement-breakpoint
CREATE TABLE `outgoing_events` (
	`id` text PRIMARY KEY NOT NULL,
	`developer_id` text NOT NULL,
	`type` text NOT NULL,
	`data` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `outgoing_events_developer_order` ON `outgoing_events` (`developer_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `outgoing_events_created` ON `outgoing_events` (`created_at`);--> statement-breakpoint
CREATE TABLE `retired_license_keys` (
	`key_hash` text PRIMARY KEY NOT NULL,
	`license_id` text NOT NULL,
	`retired_at` integer NOT NULL,
	FOREIGN KEY (`license_id`) REFERENCES `licenses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `retired_license_keys_license` ON `retired_license_keys` (`license_id`);--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`developer_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`product_id` text NOT NULL,
	`license_id` text NOT NULL,
	`processor` text NOT NULL,
	`processor_subscription_id` text NOT NULL,
	`status` text NOT NULL,
	`interval` text NOT NULL,
	`current_period_end` integer NOT NULL,
	`cancel_at_period_end` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`canceled_at` integer,
	FOREIGN KEY (`developer_id`) REFERENCES `developers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subscriptions_license_id_unique` ON `subscriptions` (`license_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `subscriptions_processor_subscription_id_unique` ON `subscriptions` (`processor_subscription_id`);--> statement-breakpoint
CREATE INDEX `subscriptions_developer_order` ON `subscriptions` (`developer_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `trial_claims` (
	`product_id` text NOT NULL,
	`kind` text NOT NULL,
	`value` text NOT NULL,
	`license_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`product_id`, `kind`, `value`),
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`license_id`) REFERENCES `licenses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `webhook_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`delivery_id` text NOT NULL,
	`attempted_at` integer NOT NULL,
	`status` integer,
	`error` text,
	`duration_ms` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_delivery` ON `webhook_attempts` (`delivery_id`,`attempted_at`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`developer_id` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`locked_until` integer,
	`last_attempt_at` integer,
	`last_status` integer,
	`last_error` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_event_endpoint` ON `webhook_deliveries` (`event_id`,`endpoint_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due` ON `webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_order` ON `webhook_deliveries` (`endpoint_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`developer_id` text NOT NULL,
	`url` text NOT NULL,
	`description` text,
	`events` text,
	`sealed_secret` text NOT NULL,
	`enabled` integer NOT NULL,
	`disabled_reason` text,
	`failing_since` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`developer_id`) REFERENCES `developers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_developer` ON `webhook_endpoints` (`developer_id`,`created_at`,`id`);--> statement-breakpoint
DROP INDEX `licenses_developer`;--> statement-breakpoint
ALTER TABLE `licenses` ADD `trial` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `licenses` ADD `subscription_id` text;--> statement-breakpoint
ALTER TABLE `licenses` ADD `expiry_announced_at` integer;--> statement-breakpoint
CREATE INDEX `licenses_developer_issued` ON `licenses` (`developer_id`,`issued_at`,`id`);--> statement-breakpoint
CREATE INDEX `licenses_developer_product_issued` ON `licenses` (`developer_id`,`product_id`,`issued_at`,`id`);--> statement-breakpoint
CREATE INDEX `licenses_developer_status_issued` ON `licenses` (`developer_id`,`status`,`issued_at`,`id`);--> statement-breakpoint
CREATE INDEX `licenses_expiry_unannounced` ON `licenses` (`expires_at`) WHERE expiry_announced_at IS NULL AND expires_at IS NOT NULL;--> statement-breakpoint
ALTER TABLE `products` ADD `interval` text;--> statement-breakpoint
ALTER TABLE `products` ADD `grace_days` integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE `products` ADD `trial_days` integer;--> statement-breakpoint
-- Licenses that had already expired before events existed are not announced now.
UPDATE `licenses` SET `expiry_announced_at` = `expires_at` WHERE `expires_at` IS NOT NULL AND `expires_at` <= CAST(unixepoch('subsec') * 1000 AS INTEGER);--> statement-breakpoint
-- Every seller's customers so far: whoever holds one of their licenses.
INSERT OR IGNORE INTO `developer_customers` (`developer_id`, `customer_id`, `email`, `first_seen_at`)
SELECT l.`developer_id`, l.`customer_id`, c.`email`, min(l.`issued_at`) FROM `licenses` l JOIN `customers` c ON c.`id` = l.`customer_id`
GROUP BY l.`developer_id`, l.`customer_id`;--> statement-breakpoint
-- Orders so far: completed checkouts and paid terminal purchases (ids derived from theirs, so stable).
INSERT OR IGNORE INTO `orders` (`id`, `developer_id`, `customer_id`, `product_id`, `license_id`, `source`, `source_id`, `amount`, `currency`, `processor`, `payment_id`, `processor_reference`, `status`, `created_at`, `refunded_at`)
SELECT 'ord_' || substr(s.`id`, 4), s.`developer_id`, s.`customer_id`, s.`product_id`, s.`license_id`, 'checkout', s.`id`, s.`amount`, s.`currency`, s.`processor`, s.`payment_id`, s.`processor_session_id`,
  CASE WHEN l.`status` = 'revoked' THEN 'refunded' ELSE 'paid' END, coalesce(s.`completed_at`, s.`created_at`), NULL
FROM `checkout_sessions` s JOIN `licenses` l ON l.`id` = s.`license_id`
WHERE s.`status` = 'complete' AND s.`customer_id` IS NOT NULL;--> statement-breakpoint
INSERT OR IGNORE INTO `orders` (`id`, `developer_id`, `customer_id`, `product_id`, `license_id`, `source`, `source_id`, `amount`, `currency`, `processor`, `payment_id`, `processor_reference`, `status`, `created_at`, `refunded_at`)
SELECT 'ord_' || substr(p.`id`, 5), p.`developer_id`, p.`customer_id`, p.`product_id`, p.`license_id`, 'purchase', p.`id`, p.`amount`, p.`currency`,
  CASE WHEN p.`payment_id` LIKE 'pi_sandbox%' OR p.`payment_id` LIKE 'sbx_%' THEN 'sandbox' ELSE 'stripe' END, p.`payment_id`, NULL,
  CASE WHEN l.`status` = 'revoked' THEN 'refunded' ELSE 'paid' END, p.`created_at`, NULL
FROM `purchases` p JOIN `licenses` l ON l.`id` = p.`license_id`
WHERE p.`status` = 'paid';--> statement-breakpoint
-- The outbox. Each trigger writes its event in the transaction of the change it reports, so an
-- event exists exactly when its change does. Payloads are snapshots taken at that moment.
CREATE TRIGGER `event_license_created` AFTER INSERT ON `licenses` BEGIN
  INSERT OR IGNORE INTO `developer_customers` (`developer_id`, `customer_id`, `email`, `first_seen_at`)
    SELECT NEW.`developer_id`, NEW.`customer_id`, `email`, NEW.`issued_at` FROM `customers` WHERE `id` = NEW.`customer_id`;
  INSERT INTO `outgoing_events` (`id`, `developer_id`, `type`, `data`, `created_at`)
  SELECT 'msg_' || lower(hex(randomblob(12))), NEW.`developer_id`, 'license.created',
    json_object('license', json_object('id', NEW.`id`, 'productId', NEW.`product_id`, 'customerId', NEW.`customer_id`, 'customerEmail', c.`email`,
      'status', NEW.`status`, 'features', json(NEW.`features`), 'issuedAt', NEW.`issued_at`, 'expiresAt', NEW.`expires_at`,
      'trial', json(CASE WHEN NEW.`trial` THEN 'true' ELSE 'false' END), 'subscriptionId', NEW.`subscription_id`)),
    CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM `customers` c WHERE c.`id` = NEW.`customer_id`;
END;--> statement-breakpoint
CREATE TRIGGER `event_license_changed` AFTER UPDATE ON `licenses`
WHEN (OLD.`status` = 'active' AND NEW.`status` = 'revoked')
  OR (OLD.`trial` AND NOT NEW.`trial`)
  OR (NOT NEW.`trial` AND NOT OLD.`trial` AND NEW.`expires_at` > OLD.`expires_at`)
  OR (NEW.`status` = 'active' AND OLD.`expiry_announced_at` IS NULL AND NEW.`expiry_announced_at` IS NOT NULL)
BEGIN
  INSERT INTO `outgoing_events` (`id`, `developer_id`, `type`, `data`, `created_at`)
  SELECT 'msg_' || lower(hex(randomblob(12))), NEW.`developer_id`,
    CASE WHEN OLD.`status` = 'active' AND NEW.`status` = 'revoked' THEN 'license.revoked'
         WHEN OLD.`trial` AND NOT NEW.`trial` THEN 'license.converted'
         WHEN NEW.`expires_at` > OLD.`expires_at` THEN 'license.renewed'
         ELSE 'license.expired' END,
    json_object('license', json_object('id', NEW.`id`, 'productId', NEW.`product_id`, 'customerId', NEW.`customer_id`, 'customerEmail', c.`email`,
      'status', CASE WHEN NEW.`status` = 'revoked' THEN 'revoked'
                     WHEN NEW.`expires_at` IS NOT NULL AND NEW.`expires_at` <= CAST(unixepoch('subsec') * 1000 AS INTEGER) THEN 'expired'
                     WHEN NEW.`expiry_announced_at` IS NOT NULL AND OLD.`expiry_announced_at` IS NULL THEN 'expired'
                     ELSE 'active' END,
      'features', json(NEW.`features`), 'issuedAt', NEW.`issued_at`, 'expiresAt', NEW.`expires_at`,
      'trial', json(CASE WHEN NEW.`trial` THEN 'true' ELSE 'false' END), 'subscriptionId', NEW.`subscription_id`)),
    CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM `customers` c WHERE c.`id` = NEW.`customer_id`;
END;--> statement-breakpoint
CREATE TRIGGER `event_activation_created` AFTER INSERT ON `activations` BEGIN
  INSERT INTO `outgoing_events` (`id`, `developer_id`, `type`, `data`, `created_at`)
  SELECT 'msg_' || lower(hex(randomblob(12))), l.`developer_id`, 'activation.created',
    json_object('activation', json_object('id', NEW.`id`, 'licenseId', NEW.`license_id`, 'productId', l.`product_id`, 'customerId', l.`customer_id`,
      'machineFingerprint', NEW.`machine_fingerprint`, 'name', NEW.`name`, 'createdAt', NEW.`created_at`)),
    CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM `licenses` l WHERE l.`id` = NEW.`license_id`;
END;--> statement-breakpoint
CREATE TRIGGER `event_activation_deleted` AFTER DELETE ON `activations` BEGIN
  INSERT INTO `outgoing_events` (`id`, `developer_id`, `type`, `data`, `created_at`)
  SELECT 'msg_' || lower(hex(randomblob(12))), l.`developer_id`, 'activation.deleted',
    json_object('activation', json_object('id', OLD.`id`, 'licenseId', OLD.`license_id`, 'productId', l.`product_id`, 'customerId', l.`customer_id`,
      'machineFingerprint', OLD.`machine_fingerprint`, 'name', OLD.`name`, 'createdAt', OLD.`created_at`)),
    CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM `licenses` l WHERE l.`id` = OLD.`license_id`;
END;--> statement-breakpoint
CREATE TRIGGER `event_order_completed` AFTER INSERT ON `orders` BEGIN
  INSERT INTO `outgoing_events` (`id`, `developer_id`, `type`, `data`, `created_at`)
  SELECT 'msg_' || lower(hex(randomblob(12))), NEW.`developer_id`, 'order.completed',
    json_object('order', json_object('id', NEW.`id`, 'productId', NEW.`product_id`, 'customerId', NEW.`customer_id`, 'customerEmail', c.`email`,
      'licenseId', NEW.`license_id`, 'source', NEW.`source`, 'amount', NEW.`amount`, 'currency', NEW.`currency`, 'processor', NEW.`processor`,
      'paymentId', NEW.`payment_id`, 'processorReference', NEW.`processor_reference`, 'status', NEW.`status`, 'createdAt', NEW.`created_at`, 'refundedAt', NEW.`refunded_at`)),
    CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM `customers` c WHERE c.`id` = NEW.`customer_id`;
END;--> statement-breakpoint
CREATE TRIGGER `event_order_refunded` AFTER UPDATE OF `status` ON `orders` WHEN OLD.`status` = 'paid' AND NEW.`status` = 'refunded' BEGIN
  INSERT INTO `outgoing_events` (`id`, `developer_id`, `type`, `data`, `created_at`)
  SELECT 'msg_' || lower(hex(randomblob(12))), NEW.`developer_id`, 'order.refunded',
    json_object('order', json_object('id', NEW.`id`, 'productId', NEW.`product_id`, 'customerId', NEW.`customer_id`, 'customerEmail', c.`email`,
      'licenseId', NEW.`license_id`, 'source', NEW.`source`, 'amount', NEW.`amount`, 'currency', NEW.`currency`, 'processor', NEW.`processor`,
      'paymentId', NEW.`payment_id`, 'processorReference', NEW.`processor_reference`, 'status', NEW.`status`, 'createdAt', NEW.`created_at`, 'refundedAt', NEW.`refunded_at`)),
    CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM `customers` c WHERE c.`id` = NEW.`customer_id`;
END;--> statement-breakpoint
CREATE TRIGGER `event_checkout_expired` AFTER UPDATE OF `status` ON `checkout_sessions` WHEN OLD.`status` = 'pending' AND NEW.`status` = 'expired' BEGIN
  INSERT INTO `outgoing_events` (`id`, `developer_id`, `type`, `data`, `created_at`)
  VALUES ('msg_' || lower(hex(randomblob(12))), NEW.`developer_id`, 'checkout.expired',
    json_object('checkout', json_object('id', NEW.`id`, 'productId', NEW.`product_id`, 'email', NEW.`email`, 'amount', NEW.`amount`, 'currency', NEW.`currency`,
      'createdAt', NEW.`created_at`, 'expiresAt', NEW.`expires_at`)),
    CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;--> statement-breakpoint
-- Fan-out: one delivery per enabled endpoint of the seller that listens for the type, due at once.
CREATE TRIGGER `event_fan_out` AFTER INSERT ON `outgoing_events` BEGIN
  INSERT INTO `webhook_deliveries` (`id`, `event_id`, `endpoint_id`, `developer_id`, `status`, `attempts`, `next_attempt_at`, `created_at`)
  SELECT 'del_' || lower(hex(randomblob(12))), NEW.`id`, e.`id`, NEW.`developer_id`, 'pending', 0, 0, NEW.`created_at`
  FROM `webhook_endpoints` e
  WHERE e.`developer_id` = NEW.`developer_id` AND e.`enabled`
    AND (e.`events` IS NULL OR EXISTS (SELECT 1 FROM json_each(e.`events`) WHERE json_each.value = NEW.`type`));
END;
