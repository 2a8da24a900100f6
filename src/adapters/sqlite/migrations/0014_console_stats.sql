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
CREATE INDEX `outgoing_events_license_order` ON `outgoing_events` (`license_id`,`created_at`,`id`);--> statement-breakpoint
-- Hand-written: the console's rollups (docs/console-api.md) are kept by triggers, in the statement that changes their rows,
-- so every write path (and any bulk load) keeps them exact. Days are UTC days since the epoch; a perpetual license's
-- expiry day is 2147483647. Then they are filled from the rows already there, and events get the license they are about.
CREATE TRIGGER `daily_stats_license_insert` AFTER INSERT ON `licenses` BEGIN
  INSERT INTO `daily_stats` (`developer_id`, `day`, `currency`, `new_licenses`) VALUES (NEW.`developer_id`, NEW.`issued_at` / 86400000, '', 1)
    ON CONFLICT (`developer_id`, `day`, `currency`) DO UPDATE SET `new_licenses` = `new_licenses` + 1;
  INSERT INTO `license_expiry_days` (`developer_id`, `day`, `licenses`, `machines`)
    SELECT NEW.`developer_id`, COALESCE(NEW.`expires_at` / 86400000, 2147483647), 1, (SELECT count(*) FROM `activations` WHERE `license_id` = NEW.`id`)
    WHERE NEW.`status` = 'active'
    ON CONFLICT (`developer_id`, `day`) DO UPDATE SET `licenses` = `licenses` + 1, `machines` = `machines` + excluded.`machines`;
END;
--> statement-breakpoint
CREATE TRIGGER `license_expiry_days_license_update` AFTER UPDATE OF `status`, `expires_at`, `developer_id` ON `licenses` BEGIN
  UPDATE `license_expiry_days` SET `licenses` = `licenses` - 1, `machines` = `machines` - (SELECT count(*) FROM `activations` WHERE `license_id` = OLD.`id`)
    WHERE OLD.`status` = 'active' AND `developer_id` = OLD.`developer_id` AND `day` = COALESCE(OLD.`expires_at` / 86400000, 2147483647);
  INSERT INTO `license_expiry_days` (`developer_id`, `day`, `licenses`, `machines`)
    SELECT NEW.`developer_id`, COALESCE(NEW.`expires_at` / 86400000, 2147483647), 1, (SELECT count(*) FROM `activations` WHERE `license_id` = NEW.`id`)
    WHERE NEW.`status` = 'active'
    ON CONFLICT (`developer_id`, `day`) DO UPDATE SET `licenses` = `licenses` + 1, `machines` = `machines` + excluded.`machines`;
END;
--> statement-breakpoint
CREATE TRIGGER `daily_stats_license_delete` AFTER DELETE ON `licenses` BEGIN
  UPDATE `daily_stats` SET `new_licenses` = `new_licenses` - 1 WHERE `developer_id` = OLD.`developer_id` AND `day` = OLD.`issued_at` / 86400000 AND `currency` = '';
  UPDATE `license_expiry_days` SET `licenses` = `licenses` - 1, `machines` = `machines` - (SELECT count(*) FROM `activations` WHERE `license_id` = OLD.`id`)
    WHERE OLD.`status` = 'active' AND `developer_id` = OLD.`developer_id` AND `day` = COALESCE(OLD.`expires_at` / 86400000, 2147483647);
END;
--> statement-breakpoint
CREATE TRIGGER `license_expiry_days_activation_insert` AFTER INSERT ON `activations` BEGIN
  UPDATE `license_expiry_days` SET `machines` = `machines` + 1
    WHERE (`developer_id`, `day`) = (SELECT `developer_id`, COALESCE(`expires_at` / 86400000, 2147483647) FROM `licenses` WHERE `id` = NEW.`license_id` AND `status` = 'active');
END;
--> statement-breakpoint
CREATE TRIGGER `license_expiry_days_activation_delete` AFTER DELETE ON `activations` BEGIN
  UPDATE `license_expiry_days` SET `machines` = `machines` - 1
    WHERE (`developer_id`, `day`) = (SELECT `developer_id`, COALESCE(`expires_at` / 86400000, 2147483647) FROM `licenses` WHERE `id` = OLD.`license_id` AND `status` = 'active');
END;
--> statement-breakpoint
CREATE TRIGGER `daily_stats_order_insert` AFTER INSERT ON `orders` BEGIN
  INSERT INTO `daily_stats` (`developer_id`, `day`, `currency`, `orders`, `revenue`, `refunded`)
    VALUES (NEW.`developer_id`, NEW.`created_at` / 86400000, NEW.`currency`, 1, NEW.`amount`, NEW.`amount_refunded`)
    ON CONFLICT (`developer_id`, `day`, `currency`) DO UPDATE SET `orders` = `orders` + 1, `revenue` = `revenue` + excluded.`revenue`, `refunded` = `refunded` + excluded.`refunded`;
END;
--> statement-breakpoint
CREATE TRIGGER `daily_stats_order_update` AFTER UPDATE OF `amount`, `amount_refunded`, `currency`, `created_at`, `developer_id` ON `orders` BEGIN
  UPDATE `daily_stats` SET `orders` = `orders` - 1, `revenue` = `revenue` - OLD.`amount`, `refunded` = `refunded` - OLD.`amount_refunded`
    WHERE `developer_id` = OLD.`developer_id` AND `day` = OLD.`created_at` / 86400000 AND `currency` = OLD.`currency`;
  INSERT INTO `daily_stats` (`developer_id`, `day`, `currency`, `orders`, `revenue`, `refunded`)
    VALUES (NEW.`developer_id`, NEW.`created_at` / 86400000, NEW.`currency`, 1, NEW.`amount`, NEW.`amount_refunded`)
    ON CONFLICT (`developer_id`, `day`, `currency`) DO UPDATE SET `orders` = `orders` + 1, `revenue` = `revenue` + excluded.`revenue`, `refunded` = `refunded` + excluded.`refunded`;
END;
--> statement-breakpoint
CREATE TRIGGER `daily_stats_order_delete` AFTER DELETE ON `orders` BEGIN
  UPDATE `daily_stats` SET `orders` = `orders` - 1, `revenue` = `revenue` - OLD.`amount`, `refunded` = `refunded` - OLD.`amount_refunded`
    WHERE `developer_id` = OLD.`developer_id` AND `day` = OLD.`created_at` / 86400000 AND `currency` = OLD.`currency`;
END;
--> statement-breakpoint
CREATE TRIGGER `subscription_counts_insert` AFTER INSERT ON `subscriptions` WHEN NEW.`status` <> 'canceled' BEGIN
  INSERT INTO `subscription_counts` (`developer_id`, `product_id`, `interval`, `subscriptions`) VALUES (NEW.`developer_id`, NEW.`product_id`, NEW.`interval`, 1)
    ON CONFLICT (`developer_id`, `product_id`, `interval`) DO UPDATE SET `subscriptions` = `subscriptions` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `subscription_counts_update` AFTER UPDATE OF `status`, `product_id`, `interval`, `developer_id` ON `subscriptions` BEGIN
  UPDATE `subscription_counts` SET `subscriptions` = `subscriptions` - 1
    WHERE OLD.`status` <> 'canceled' AND `developer_id` = OLD.`developer_id` AND `product_id` = OLD.`product_id` AND `interval` = OLD.`interval`;
  INSERT INTO `subscription_counts` (`developer_id`, `product_id`, `interval`, `subscriptions`)
    SELECT NEW.`developer_id`, NEW.`product_id`, NEW.`interval`, 1 WHERE NEW.`status` <> 'canceled'
    ON CONFLICT (`developer_id`, `product_id`, `interval`) DO UPDATE SET `subscriptions` = `subscriptions` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `subscription_counts_delete` AFTER DELETE ON `subscriptions` WHEN OLD.`status` <> 'canceled' BEGIN
  UPDATE `subscription_counts` SET `subscriptions` = `subscriptions` - 1
    WHERE `developer_id` = OLD.`developer_id` AND `product_id` = OLD.`product_id` AND `interval` = OLD.`interval`;
END;
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
