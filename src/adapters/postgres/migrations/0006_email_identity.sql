CREATE TABLE "mail_outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"license_id" text,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint NOT NULL,
	"last_error" text,
	"sent_at" bigint,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_mail" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sandbox_mail_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text NOT NULL,
	"sent_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trial_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"developer_id" text NOT NULL,
	"product_id" text NOT NULL,
	"email" text NOT NULL,
	"machine_fingerprint" text NOT NULL,
	"name" text,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"confirmed_at" bigint
);
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "phone_verified_at" bigint;--> statement-breakpoint
CREATE INDEX "mail_outbox_due" ON "mail_outbox" USING btree ("sent_at","next_attempt_at");--> statement-breakpoint
CREATE INDEX "mail_outbox_license" ON "mail_outbox" USING btree ("license_id","created_at");--> statement-breakpoint
CREATE INDEX "sandbox_mail_recipient" ON "sandbox_mail" USING btree ("to","sent_at");--> statement-breakpoint
CREATE INDEX "sandbox_mail_sent" ON "sandbox_mail" USING btree ("sent_at");--> statement-breakpoint
-- Sessions signed in before e-mail sign-in may have come through a phone a stranger's checkout planted: all end now.
UPDATE "identity_tokens" SET "revoked_at" = (extract(epoch from now()) * 1000)::bigint WHERE "revoked_at" IS NULL;
