ALTER TABLE "idempotency_keys" ADD COLUMN "object_kind" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "object_id" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "heartbeat_at" bigint;