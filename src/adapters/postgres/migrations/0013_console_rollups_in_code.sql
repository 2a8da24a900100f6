-- Hand-written: a store migrated by the release that first shipped console_stats holds the triggers (and, on
-- PostgreSQL, functions) that release kept its rollups with; the rollups are moved by the repositories now, in the
-- transaction of each change (src/domain/stats-rollups.ts), so they go. Nothing is left to drop on a newer store.
DROP TRIGGER IF EXISTS console_stats_licenses_insert ON licenses;--> statement-breakpoint
DROP TRIGGER IF EXISTS console_stats_licenses_update ON licenses;--> statement-breakpoint
DROP TRIGGER IF EXISTS console_stats_licenses_delete ON licenses;--> statement-breakpoint
DROP TRIGGER IF EXISTS console_stats_activations_insert ON activations;--> statement-breakpoint
DROP TRIGGER IF EXISTS console_stats_activations_delete ON activations;--> statement-breakpoint
DROP TRIGGER IF EXISTS console_stats_orders_insert ON orders;--> statement-breakpoint
DROP TRIGGER IF EXISTS console_stats_orders_update ON orders;--> statement-breakpoint
DROP TRIGGER IF EXISTS console_stats_orders_delete ON orders;--> statement-breakpoint
DROP TRIGGER IF EXISTS console_stats_subscriptions ON subscriptions;--> statement-breakpoint
DROP TRIGGER IF EXISTS console_stats_subscriptions_update ON subscriptions;--> statement-breakpoint
DROP FUNCTION IF EXISTS console_stats_licenses();--> statement-breakpoint
DROP FUNCTION IF EXISTS console_stats_activations();--> statement-breakpoint
DROP FUNCTION IF EXISTS console_stats_orders();--> statement-breakpoint
DROP FUNCTION IF EXISTS console_stats_subscriptions();
