-- Hand-written: a store migrated by the release that first shipped console_stats holds the triggers (and, on
-- PostgreSQL, functions) that release kept its rollups with; the rollups are moved by the repositories now, in the
-- transaction of each change (src/domain/stats-rollups.ts), so they go. Nothing is left to drop on a newer store.
DROP TRIGGER IF EXISTS `daily_stats_license_insert`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `license_expiry_days_license_update`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `daily_stats_license_delete`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `license_expiry_days_activation_insert`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `license_expiry_days_activation_delete`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `daily_stats_order_insert`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `daily_stats_order_update`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `daily_stats_order_delete`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `subscription_counts_insert`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `subscription_counts_update`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `subscription_counts_delete`;
