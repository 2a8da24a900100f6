CREATE TABLE `activations` (
	`id` text PRIMARY KEY NOT NULL,
	`license_id` text NOT NULL,
	`machine_fingerprint` text NOT NULL,
	`name` text,
	`created_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	FOREIGN KEY (`license_id`) REFERENCES `licenses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `activations_license_fingerprint` ON `activations` (`license_id`,`machine_fingerprint`);--> statement-breakpoint
CREATE TABLE `deactivations` (
	`activation_id` text PRIMARY KEY NOT NULL,
	`license_id` text NOT NULL,
	`removed_at` integer NOT NULL,
	FOREIGN KEY (`license_id`) REFERENCES `licenses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `deactivations_license` ON `deactivations` (`license_id`,`removed_at`);--> statement-breakpoint
ALTER TABLE `licenses` ADD `max_machines` integer DEFAULT 1;--> statement-breakpoint
ALTER TABLE `products` ADD `max_machines` integer DEFAULT 1;--> statement-breakpoint
ALTER TABLE `products` ADD `deactivations_per_30_days` integer DEFAULT 3 NOT NULL;--> statement-breakpoint
-- Every machine binding becomes one activation (ids derived from the license's, so unique and stable).
-- licenses.machine_fingerprint and bound_at stay as they were and are no longer read or written.
INSERT INTO `activations` (`id`, `license_id`, `machine_fingerprint`, `name`, `created_at`, `last_seen_at`)
SELECT 'act_' || substr(`id`, 5), `id`, `machine_fingerprint`, NULL, coalesce(`bound_at`, `issued_at`), coalesce(`bound_at`, `issued_at`)
FROM `licenses` WHERE `machine_fingerprint` IS NOT NULL;
