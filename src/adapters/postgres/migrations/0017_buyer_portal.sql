ALTER TABLE "orders" ADD COLUMN "receipt_url" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "change_claimed_at" bigint;--> statement-breakpoint
CREATE INDEX "orders_customer" ON "orders" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "subscriptions_customer" ON "subscriptions" USING btree ("customer_id","created_at");