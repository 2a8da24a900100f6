CREATE TABLE "payment_reversals" (
	"payment_id" text NOT NULL,
	"account_id" text NOT NULL,
	"invoice_id" text,
	"refunded" integer NOT NULL,
	"all_refunded" boolean NOT NULL,
	"recorded_at" bigint NOT NULL,
	CONSTRAINT "payment_reversals_payment_id_account_id_pk" PRIMARY KEY("payment_id","account_id")
);
--> statement-breakpoint
CREATE INDEX "payment_reversals_invoice" ON "payment_reversals" USING btree ("invoice_id");