CREATE TABLE "activations" (
	"id" text PRIMARY KEY NOT NULL,
	"license_id" text NOT NULL,
	"machine_fingerprint" text NOT NULL,
	"name" text,
	"created_at" bigint NOT NULL,
	"last_seen_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deactivations" (
	"activation_id" text PRIMARY KEY NOT NULL,
	"license_id" text NOT NULL,
	"removed_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "max_machines" integer DEFAULT 1;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "max_machines" integer DEFAULT 1;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "deactivations_per_30_days" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "activations" ADD CONSTRAINT "activations_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deactivations" ADD CONSTRAINT "deactivations_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "activations_license_fingerprint" ON "activations" USING btree ("license_id","machine_fingerprint");--> statement-breakpoint
CREATE INDEX "deactivations_license" ON "deactivations" USING btree ("license_id","removed_at");--> statement-breakpoint
-- Every machine binding becomes one activation (ids derived from the license's, so unique and stable).
-- licenses.machine_fingerprint and bound_at stay as they were and are no longer read or written.
INSERT INTO "activations" ("id", "license_id", "machine_fingerprint", "name", "created_at", "last_seen_at")
SELECT 'act_' || substr("id", 5), "id", "machine_fingerprint", NULL, coalesce("bound_at", "issued_at"), coalesce("bound_at", "issued_at")
FROM "licenses" WHERE "machine_fingerprint" IS NOT NULL;
