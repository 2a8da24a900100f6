ALTER TABLE `login_failures` ADD `updated_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `login_failures_updated` ON `login_failures` (`updated_at`);--> statement-breakpoint
CREATE INDEX `deactivations_removed` ON `deactivations` (`removed_at`);--> statement-breakpoint
-- Hand-written (data migration): rows written before attempts were timed count from the migration.
UPDATE `login_failures` SET `updated_at` = CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER);
