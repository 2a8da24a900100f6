CREATE TABLE "leases" (
	"id" text PRIMARY KEY NOT NULL,
	"license_id" text NOT NULL,
	"machine_fingerprint" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"borrowed" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "license_lease_terms" (
	"license_id" text PRIMARY KEY NOT NULL,
	"max_leases" integer,
	"lease_seconds" integer,
	"max_borrow_hours" integer
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "max_leases" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "lease_seconds" integer DEFAULT 600 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "max_borrow_hours" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "leases" ADD CONSTRAINT "leases_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "license_lease_terms" ADD CONSTRAINT "license_lease_terms_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "leases_license_fingerprint" ON "leases" USING btree ("license_id","machine_fingerprint");--> statement-breakpoint
CREATE INDEX "leases_expires" ON "leases" USING btree ("expires_at");