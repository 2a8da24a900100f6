CREATE TABLE `daily_stats` (
	`developer_id` text NOT NULL,
	`day` integer NOT NULL,
	`currency` text NOT NULL,
	`new_licenses` integer DEFAULT 0 NOT NULL,
	`orders` integer DEFAULT 0 NOT NULL,
	`revenue` integer DEFAULT 0 NOT NULL,
	`refunded` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`developer_id`, `day`, `currency`)
);
--> statement-breakpoint
CREATE TABLE `license_expiry_days` (
	`developer_id` text NOT NULL,
	`day` integer NOT NULL,
	`licenses` integer DEFAULT 0 NOT NULL,
	`machines` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`developer_id`, `day`)
);
--> statement-breakpoint
CREATE TABLE `subscription_counts` (
	`developer_id` text NOT NULL,
	`product_id` text NOT NULL,
	`interval` text NOT NULL,
	`subscriptions` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`developer_id`, `product_id`, `interval`)
);
--> statement-breakpoint
ALTER TABLE `api_keys` ADD `last_used_at` integer;--> statement-breakpoint
ALTER TABLE `outgoing_events` ADD `license_id` text;--> statement-breakpoint
CREATE INDEX `outgoing_events_license_order` ON `outgoing_events` (`license_id`,`created_at`,`id`);
-- Hand-written: the console's rollups (docs/console-api.md) are moved by the repositories in each change's transaction
-- (src/domain/stats-rollups.ts); here they are filled from the rows already there, and events get the license they are
-- about. Days are UTC days since the epoch; a perpetual license's expiry day is 2147483647.
--> statement-breakpoint
INSERT INTO `daily_stats` (`developer_id`, `day`, `currency`, `new_licenses`)
  SELECT `developer_id`, `issued_at` / 86400000, '', count(*) FROM `licenses` GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO `daily_stats` (`developer_id`, `day`, `currency`, `orders`, `revenue`, `refunded`)
  SELECT `developer_id`, `created_at` / 86400000, `currency`, count(*), sum(`amount`), sum(`amount_refunded`) FROM `orders` GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO `license_expiry_days` (`developer_id`, `day`, `licenses`, `machines`)
  SELECT l.`developer_id`, COALESCE(l.`expires_at` / 86400000, 2147483647), count(*), sum((SELECT count(*) FROM `activations` a WHERE a.`license_id` = l.`id`))
  FROM `licenses` l WHERE l.`status` = 'active' GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO `subscription_counts` (`developer_id`, `product_id`, `interval`, `subscriptions`)
  SELECT `developer_id`, `product_id`, `interval`, count(*) FROM `subscriptions` WHERE `status` <> 'canceled' GROUP BY 1, 2, 3;
--> statement-breakpoint
UPDATE `outgoing_events` SET `license_id` = COALESCE(json_extract(`data`, '$.license.id'), json_extract(`data`, '$.activation.licenseId'), json_extract(`data`, '$.order.licenseId'));
