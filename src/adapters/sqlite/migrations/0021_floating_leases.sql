CREATE TABLE `leases` (
	`id` text PRIMARY KEY NOT NULL,
	`license_id` text NOT NULL,
	`machine_fingerprint` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`borrowed` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`license_id`) REFERENCES `licenses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `leases_license_fingerprint` ON `leases` (`license_id`,`machine_fingerprint`);--> statement-breakpoint
CREATE INDEX `leases_expires` ON `leases` (`expires_at`);--> statement-breakpoint
CREATE TABLE `license_lease_terms` (
	`license_id` text PRIMARY KEY NOT NULL,
	`max_leases` integer,
	`lease_seconds` integer,
	`max_borrow_hours` integer,
	FOREIGN KEY (`license_id`) REFERENCES `licenses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `products` ADD `max_leases` integer;--> statement-breakpoint
ALTER TABLE `products` ADD `lease_seconds` integer DEFAULT 600 NOT NULL;--> statement-breakpoint
ALTER TABLE `products` ADD `max_borrow_hours` integer DEFAULT 0 NOT NULL;