CREATE TABLE `machine_files` (
	`id` text PRIMARY KEY NOT NULL,
	`license_id` text NOT NULL,
	`fingerprint_hash` text NOT NULL,
	`issued_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`license_id`) REFERENCES `licenses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `machine_files_license` ON `machine_files` (`license_id`,`issued_at`,`id`);