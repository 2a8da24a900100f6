ALTER TABLE "orders" ADD COLUMN "amount_refunded" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "period_start" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "period_end" bigint;--> statement-breakpoint
-- Hand-written (data migration): orders refunded before amounts were kept had all of their amount refunded.
UPDATE "orders" SET "amount_refunded" = "amount" WHERE "status" = 'refunded';
