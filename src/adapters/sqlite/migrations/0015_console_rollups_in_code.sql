-- Hand-written: the console's rollups are now moved by the repositories, in the transaction of each change
-- (src/domain/stats-rollups.ts says by how much); SQL keeps only the schema and its constraints.
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
