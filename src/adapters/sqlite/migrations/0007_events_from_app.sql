-- Events are written by the application, in the transaction of the change they report
-- (src/domain/events.ts decides, sqlite-events.ts writes): the outbox triggers of 0005 go.
DROP TRIGGER IF EXISTS `event_license_created`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `event_license_changed`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `event_activation_created`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `event_activation_deleted`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `event_order_completed`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `event_order_refunded`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `event_checkout_expired`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `event_fan_out`;
