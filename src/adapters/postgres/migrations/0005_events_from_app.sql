-- Events are written by the application, in the transaction of the change they report
-- (src/domain/events.ts decides, postgres-events.ts writes): the outbox triggers of 0003 and their functions go.
DROP TRIGGER IF EXISTS "event_license_created" ON "licenses";--> statement-breakpoint
DROP TRIGGER IF EXISTS "event_license_changed" ON "licenses";--> statement-breakpoint
DROP TRIGGER IF EXISTS "event_activation" ON "activations";--> statement-breakpoint
DROP TRIGGER IF EXISTS "event_order" ON "orders";--> statement-breakpoint
DROP TRIGGER IF EXISTS "event_checkout_expired" ON "checkout_sessions";--> statement-breakpoint
DROP TRIGGER IF EXISTS "event_fan_out" ON "outgoing_events";--> statement-breakpoint
DROP FUNCTION IF EXISTS "event_license_created"();--> statement-breakpoint
DROP FUNCTION IF EXISTS "event_license_changed"();--> statement-breakpoint
DROP FUNCTION IF EXISTS "event_activation"();--> statement-breakpoint
DROP FUNCTION IF EXISTS "event_order"();--> statement-breakpoint
DROP FUNCTION IF EXISTS "event_checkout_expired"();--> statement-breakpoint
DROP FUNCTION IF EXISTS "event_fan_out"();--> statement-breakpoint
DROP FUNCTION IF EXISTS "licensing_emit"(text, text, jsonb);--> statement-breakpoint
DROP FUNCTION IF EXISTS "licensing_license_json"("licenses", text);--> statement-breakpoint
DROP FUNCTION IF EXISTS "licensing_order_json"("orders");--> statement-breakpoint
DROP FUNCTION IF EXISTS "licensing_event_id"(text);--> statement-breakpoint
DROP FUNCTION IF EXISTS "licensing_now"();
