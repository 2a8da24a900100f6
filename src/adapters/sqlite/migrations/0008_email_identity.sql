CREATE TABLE `mail_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`license_id` text,
	`to` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`html` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`sent_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mail_outbox_due` ON `mail_outbox` (`sent_at`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `mail_outbox_license` ON `mail_outbox` (`license_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `sandbox_mail` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`to` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`html` text NOT NULL,
	`sent_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sandbox_mail_recipient` ON `sandbox_mail` (`to`,`sent_at`);--> statement-breakpoint
CREATE INDEX `sandbox_mail_sent` ON `sandbox_mail` (`sent_at`);--> statement-breakpoint
CREATE TABLE `trial_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`developer_id` text NOT NULL,
	`product_id` text NOT NULL,
	`email` text NOT NULL,
	`machine_fingerprint` text NOT NULL,
	`name` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`confirmed_at` integer
);
--> statement-breakpoint
ALTER TABLE `customers` ADD `phone_verified_at` integer;--> statement-breakpoint
-- Sessions signed in before e-mail sign-in may have come through a phone a stranger's checkout planted: all end now.
UPDATE `identity_tokens` SET `revoked_at` = CAST(strftime('%s', 'now') AS INTEGER) * 1000 WHERE `revoked_at` IS NULL;
