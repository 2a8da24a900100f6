CREATE TABLE `payment_reversals` (
	`payment_id` text NOT NULL,
	`account_id` text NOT NULL,
	`invoice_id` text,
	`refunded` integer NOT NULL,
	`all_refunded` integer NOT NULL,
	`recorded_at` integer NOT NULL,
	PRIMARY KEY(`payment_id`, `account_id`)
);
--> statement-breakpoint
CREATE INDEX `payment_reversals_invoice` ON `payment_reversals` (`invoice_id`);