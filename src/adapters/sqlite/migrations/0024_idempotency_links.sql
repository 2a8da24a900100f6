ALTER TABLE `idempotency_keys` ADD `object_kind` text;--> statement-breakpoint
ALTER TABLE `idempotency_keys` ADD `object_id` text;--> statement-breakpoint
ALTER TABLE `idempotency_keys` ADD `heartbeat_at` integer;