ALTER TABLE "saved_cards" ADD COLUMN "phone" text;--> statement-breakpoint
CREATE INDEX "checkout_sessions_expiry" ON "checkout_sessions" USING btree ("status","expires_at");--> statement-breakpoint
CREATE INDEX "connect_states_expiry" ON "connect_states" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "identity_tokens_expiry" ON "identity_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "otp_challenges_expiry" ON "otp_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "purchases_retention" ON "purchases" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "sms_outbox_sent" ON "sms_outbox" USING btree ("sent_at");--> statement-breakpoint
-- Cards saved before this release keep being offered to the phone on file when they were saved.
UPDATE "saved_cards" SET "phone" = (SELECT "phone" FROM "customers" WHERE "customers"."id" = "saved_cards"."customer_id");
