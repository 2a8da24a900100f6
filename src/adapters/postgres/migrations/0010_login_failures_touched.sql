ALTER TABLE "login_failures" ADD COLUMN "updated_at" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "deactivations_removed" ON "deactivations" USING btree ("removed_at");--> statement-breakpoint
CREATE INDEX "login_failures_updated" ON "login_failures" USING btree ("updated_at");--> statement-breakpoint
-- Hand-written (data migration): rows written before attempts were timed count from the migration.
UPDATE "login_failures" SET "updated_at" = (extract(epoch from clock_timestamp()) * 1000)::bigint;
