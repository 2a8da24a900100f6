CREATE TABLE `checkout_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`developer_id` text NOT NULL,
	`product_id` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`email` text,
	`success_url` text NOT NULL,
	`cancel_url` text NOT NULL,
	`processor` text NOT NULL,
	`processor_session_id` text,
	`checkout_url` text,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`completed_at` integer,
	`license_id` text,
	`customer_id` text,
	`payment_id` text,
	`reconciled_at` integer,
	FOREIGN KEY (`developer_id`) REFERENCES `developers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `checkout_sessions_processor_session_id_unique` ON `checkout_sessions` (`processor_session_id`);--> statement-breakpoint
CREATE INDEX `checkout_sessions_payment` ON `checkout_sessions` (`payment_id`);--> statement-breakpoint
CREATE TABLE `connect_states` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`developer_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`developer_id`) REFERENCES `developers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `processor_accounts` (
	`developer_id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`connected_at` integer NOT NULL,
	FOREIGN KEY (`developer_id`) REFERENCES `developers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `processor_accounts_account` ON `processor_accounts` (`account_id`);--> statement-breakpoint
CREATE TABLE `saved_cards` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`developer_id` text NOT NULL,
	`processor_customer_id` text,
	`processor_payment_method_id` text NOT NULL,
	`brand` text NOT NULL,
	`last4` text NOT NULL,
	`exp_month` integer NOT NULL,
	`exp_year` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`developer_id`) REFERENCES `developers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `saved_cards_payment_method` ON `saved_cards` (`developer_id`,`processor_payment_method_id`);--> statement-breakpoint
CREATE INDEX `saved_cards_customer_order` ON `saved_cards` (`customer_id`,`developer_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `webhook_events` (
	`event_id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `licenses` ADD `checkout_session_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `licenses_checkout_session` ON `licenses` (`checkout_session_id`);