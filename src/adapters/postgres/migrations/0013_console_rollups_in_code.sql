-- Hand-written: the console's rollups are now moved by the repositories, in the transaction of each change
-- (src/domain/stats-rollups.ts says by how much); SQL keeps only the schema and its constraints.
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
