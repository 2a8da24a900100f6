CREATE TABLE "machine_files" (
	"id" text PRIMARY KEY NOT NULL,
	"license_id" text NOT NULL,
	"fingerprint_hash" text NOT NULL,
	"issued_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "machine_files" ADD CONSTRAINT "machine_files_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "machine_files_license" ON "machine_files" USING btree ("license_id","issued_at","id");