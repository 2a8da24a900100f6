ALTER TABLE `orders` ADD `receipt_url` text;--> statement-breakpoint
CREATE INDEX `orders_customer` ON `orders` (`customer_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `change_claimed_at` integer;--> statement-breakpoint
CREATE INDEX `subscriptions_customer` ON `subscriptions` (`customer_id`,`created_at`);