CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"developer_id" text NOT NULL,
	"scope" text NOT NULL,
	"key_hash" text NOT NULL,
	"created_at" bigint NOT NULL,
	"revoked_at" bigint,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "checkout_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"developer_id" text NOT NULL,
	"product_id" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"email" text,
	"success_url" text NOT NULL,
	"cancel_url" text NOT NULL,
	"processor" text NOT NULL,
	"processor_session_id" text,
	"checkout_url" text,
	"status" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"completed_at" bigint,
	"license_id" text,
	"customer_id" text,
	"payment_id" text,
	"reconciled_at" bigint,
	CONSTRAINT "checkout_sessions_processor_session_id_unique" UNIQUE("processor_session_id")
);
--> statement-breakpoint
CREATE TABLE "connect_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"developer_id" text NOT NULL,
	"expires_at" bigint NOT NULL,
	"used_at" bigint
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"created_at" bigint NOT NULL,
	CONSTRAINT "customers_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "developers" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "developers_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "identity_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"device_fingerprint" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"revoked_at" bigint
);
--> statement-breakpoint
CREATE TABLE "licenses" (
	"id" text PRIMARY KEY NOT NULL,
	"developer_id" text NOT NULL,
	"product_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"status" text NOT NULL,
	"features" jsonb NOT NULL,
	"issued_at" bigint NOT NULL,
	"expires_at" bigint,
	"machine_fingerprint" text,
	"bound_at" bigint,
	"license_key" text NOT NULL,
	"key_hash" text NOT NULL,
	"checkout_session_id" text,
	"purchase_id" text,
	CONSTRAINT "licenses_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "login_failures" (
	"customer_id" text PRIMARY KEY NOT NULL,
	"consecutive" integer NOT NULL,
	"locked_until" bigint
);
--> statement-breakpoint
CREATE TABLE "otp_challenges" (
	"id" text PRIMARY KEY NOT NULL,
	"scope" text NOT NULL,
	"subject" text NOT NULL,
	"customer_id" text,
	"code_digest" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"attempts" integer NOT NULL,
	"used_at" bigint
);
--> statement-breakpoint
CREATE TABLE "processor_accounts" (
	"developer_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"connected_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" text PRIMARY KEY NOT NULL,
	"developer_id" text NOT NULL,
	"name" text NOT NULL,
	"price" integer NOT NULL,
	"currency" text NOT NULL,
	"features" jsonb NOT NULL,
	"license_days" integer,
	"active" boolean NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "purchases" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"developer_id" text NOT NULL,
	"product_id" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"attempt" integer NOT NULL,
	"charging_since" bigint,
	"card_id" text,
	"payment_id" text,
	"license_id" text,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saved_cards" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"developer_id" text NOT NULL,
	"processor_customer_id" text,
	"processor_payment_method_id" text NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"created_at" bigint NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "saved_cards_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1)
);
--> statement-breakpoint
CREATE TABLE "signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"developer_id" text NOT NULL,
	"public_key" text NOT NULL,
	"sealed_private_key" text NOT NULL,
	"created_at" bigint NOT NULL,
	"active" boolean NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "signing_keys_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1)
);
--> statement-breakpoint
CREATE TABLE "sms_outbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sms_outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"to" text NOT NULL,
	"body" text NOT NULL,
	"sent_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_developer_id_developers_id_fk" FOREIGN KEY ("developer_id") REFERENCES "public"."developers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_developer_id_developers_id_fk" FOREIGN KEY ("developer_id") REFERENCES "public"."developers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connect_states" ADD CONSTRAINT "connect_states_developer_id_developers_id_fk" FOREIGN KEY ("developer_id") REFERENCES "public"."developers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_tokens" ADD CONSTRAINT "identity_tokens_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_developer_id_developers_id_fk" FOREIGN KEY ("developer_id") REFERENCES "public"."developers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otp_challenges" ADD CONSTRAINT "otp_challenges_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processor_accounts" ADD CONSTRAINT "processor_accounts_developer_id_developers_id_fk" FOREIGN KEY ("developer_id") REFERENCES "public"."developers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_developer_id_developers_id_fk" FOREIGN KEY ("developer_id") REFERENCES "public"."developers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_developer_id_developers_id_fk" FOREIGN KEY ("developer_id") REFERENCES "public"."developers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_card_id_saved_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."saved_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_cards" ADD CONSTRAINT "saved_cards_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_cards" ADD CONSTRAINT "saved_cards_developer_id_developers_id_fk" FOREIGN KEY ("developer_id") REFERENCES "public"."developers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_keys" ADD CONSTRAINT "signing_keys_developer_id_developers_id_fk" FOREIGN KEY ("developer_id") REFERENCES "public"."developers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_developer" ON "api_keys" USING btree ("developer_id");--> statement-breakpoint
CREATE INDEX "checkout_sessions_payment" ON "checkout_sessions" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "licenses_customer" ON "licenses" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "licenses_developer" ON "licenses" USING btree ("developer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "licenses_checkout_session" ON "licenses" USING btree ("checkout_session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "licenses_purchase" ON "licenses" USING btree ("purchase_id");--> statement-breakpoint
CREATE INDEX "otp_challenges_sends" ON "otp_challenges" USING btree ("scope","subject","created_at");--> statement-breakpoint
CREATE INDEX "processor_accounts_account" ON "processor_accounts" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "products_developer_order" ON "products" USING btree ("developer_id","created_at","id" COLLATE "C");--> statement-breakpoint
CREATE INDEX "purchases_payment" ON "purchases" USING btree ("payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "saved_cards_payment_method" ON "saved_cards" USING btree ("developer_id","processor_payment_method_id");--> statement-breakpoint
CREATE INDEX "saved_cards_customer_order" ON "saved_cards" USING btree ("customer_id","developer_id","created_at");--> statement-breakpoint
CREATE INDEX "signing_keys_developer" ON "signing_keys" USING btree ("developer_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "signing_keys_one_active" ON "signing_keys" USING btree ("developer_id") WHERE "signing_keys"."active";--> statement-breakpoint
CREATE INDEX "sms_outbox_recipient" ON "sms_outbox" USING btree ("to","sent_at");