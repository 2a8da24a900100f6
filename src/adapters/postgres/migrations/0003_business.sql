CREATE TABLE "developer_customers" (
	"developer_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"email" text NOT NULL,
	"first_seen_at" bigint NOT NULL,
	CONSTRAINT "developer_customers_developer_id_customer_id_pk" PRIMARY KEY("developer_id","customer_id")
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" text PRIMARY KEY NOT NULL,
	"developer_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"product_id" text NOT NULL,
	"license_id" text NOT NULL,
	"source" text NOT NULL,
	"source_id" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"processor" text NOT NULL,
	"payment_id" text,
	"processor_reference" text,
	"status" text NOT NULL,
	"created_at" bigint NOT NULL,
	"refunded_at" bigint,
	CONSTRAINT "orders_source_id_unique" UNIQUE("source_id")
);
--> statement-breakpoint
CREATE TABLE "outgoing_events" (
	"id" text PRIMARY KEY NOT NULL,
	"developer_id" text NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "retired_license_keys" (
	"key_hash" text PRIMARY KEY NOT NULL,
	"license_id" text NOT NULL,
	"retired_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"developer_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"product_id" text NOT NULL,
	"license_id" text NOT NULL,
	"processor" text NOT NULL,
	"processor_subscription_id" text NOT NULL,
	"status" text NOT NULL,
	"interval" text NOT NULL,
	"current_period_end" bigint NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"canceled_at" bigint,
	CONSTRAINT "subscriptions_license_id_unique" UNIQUE("license_id"),
	CONSTRAINT "subscriptions_processor_subscription_id_unique" UNIQUE("processor_subscription_id")
);
--> statement-breakpoint
CREATE TABLE "trial_claims" (
	"product_id" text NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"license_id" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "trial_claims_product_id_kind_value_pk" PRIMARY KEY("product_id","kind","value")
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "webhook_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"delivery_id" text NOT NULL,
	"attempted_at" bigint NOT NULL,
	"status" integer,
	"error" text,
	"duration_ms" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"endpoint_id" text NOT NULL,
	"developer_id" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint NOT NULL,
	"locked_until" bigint,
	"last_attempt_at" bigint,
	"last_status" integer,
	"last_error" text,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" text PRIMARY KEY NOT NULL,
	"developer_id" text NOT NULL,
	"url" text NOT NULL,
	"description" text,
	"events" jsonb,
	"sealed_secret" text NOT NULL,
	"enabled" boolean NOT NULL,
	"disabled_reason" text,
	"failing_since" bigint,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
DROP INDEX "licenses_developer";--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "trial" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "subscription_id" text;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "expiry_announced_at" bigint;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "interval" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "grace_days" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "trial_days" integer;--> statement-breakpoint
ALTER TABLE "developer_customers" ADD CONSTRAINT "developer_customers_developer_id_developers_id_fk" FOREIGN KEY ("developer_id") REFERENCES "public"."developers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "developer_customers" ADD CONSTRAINT "developer_customers_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_developer_id_developers_id_fk" FOREIGN KEY ("developer_id") REFERENCES "public"."developers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retired_license_keys" ADD CONSTRAINT "retired_license_keys_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_developer_id_developers_id_fk" FOREIGN KEY ("developer_id") REFERENCES "public"."developers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_claims" ADD CONSTRAINT "trial_claims_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_claims" ADD CONSTRAINT "trial_claims_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_developer_id_developers_id_fk" FOREIGN KEY ("developer_id") REFERENCES "public"."developers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "developer_customers_email" ON "developer_customers" USING btree ("developer_id","email" COLLATE "C");--> statement-breakpoint
CREATE INDEX "developer_customers_order" ON "developer_customers" USING btree ("developer_id","first_seen_at","customer_id" COLLATE "C");--> statement-breakpoint
CREATE INDEX "orders_developer_order" ON "orders" USING btree ("developer_id","created_at",id COLLATE "C");--> statement-breakpoint
CREATE INDEX "orders_payment" ON "orders" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "orders_license" ON "orders" USING btree ("license_id");--> statement-breakpoint
CREATE INDEX "outgoing_events_developer_order" ON "outgoing_events" USING btree ("developer_id","created_at",id COLLATE "C");--> statement-breakpoint
CREATE INDEX "outgoing_events_created" ON "outgoing_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "retired_license_keys_license" ON "retired_license_keys" USING btree ("license_id");--> statement-breakpoint
CREATE INDEX "subscriptions_developer_order" ON "subscriptions" USING btree ("developer_id","created_at",id COLLATE "C");--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery" ON "webhook_attempts" USING btree ("delivery_id","attempted_at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_event_endpoint" ON "webhook_deliveries" USING btree ("event_id","endpoint_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due" ON "webhook_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_order" ON "webhook_deliveries" USING btree ("endpoint_id","created_at",id COLLATE "C");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_developer" ON "webhook_endpoints" USING btree ("developer_id","created_at",id COLLATE "C");--> statement-breakpoint
CREATE INDEX "licenses_developer_issued" ON "licenses" USING btree ("developer_id","issued_at",id COLLATE "C");--> statement-breakpoint
CREATE INDEX "licenses_developer_product_issued" ON "licenses" USING btree ("developer_id","product_id","issued_at",id COLLATE "C");--> statement-breakpoint
CREATE INDEX "licenses_developer_status_issued" ON "licenses" USING btree ("developer_id","status","issued_at",id COLLATE "C");--> statement-breakpoint
CREATE INDEX "licenses_expiry_unannounced" ON "licenses" USING btree ("expires_at") WHERE expiry_announced_at IS NULL AND expires_at IS NOT NULL;--> statement-breakpoint
-- Licenses that had already expired before events existed are not announced now.
UPDATE "licenses" SET "expiry_announced_at" = "expires_at" WHERE "expires_at" IS NOT NULL AND "expires_at" <= (extract(epoch FROM clock_timestamp()) * 1000)::bigint;--> statement-breakpoint
-- Every seller's customers so far: whoever holds one of their licenses.
INSERT INTO "developer_customers" ("developer_id", "customer_id", "email", "first_seen_at")
SELECT l."developer_id", l."customer_id", c."email", min(l."issued_at") FROM "licenses" l JOIN "customers" c ON c."id" = l."customer_id"
GROUP BY l."developer_id", l."customer_id", c."email" ON CONFLICT DO NOTHING;--> statement-breakpoint
-- Orders so far: completed checkouts and paid terminal purchases (ids derived from theirs, so stable).
INSERT INTO "orders" ("id", "developer_id", "customer_id", "product_id", "license_id", "source", "source_id", "amount", "currency", "processor", "payment_id", "processor_reference", "status", "created_at", "refunded_at")
SELECT 'ord_' || substr(s."id", 4), s."developer_id", s."customer_id", s."product_id", s."license_id", 'checkout', s."id", s."amount", s."currency", s."processor", s."payment_id", s."processor_session_id",
  CASE WHEN l."status" = 'revoked' THEN 'refunded' ELSE 'paid' END, coalesce(s."completed_at", s."created_at"), NULL
FROM "checkout_sessions" s JOIN "licenses" l ON l."id" = s."license_id"
WHERE s."status" = 'complete' AND s."customer_id" IS NOT NULL ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "orders" ("id", "developer_id", "customer_id", "product_id", "license_id", "source", "source_id", "amount", "currency", "processor", "payment_id", "processor_reference", "status", "created_at", "refunded_at")
SELECT 'ord_' || substr(p."id", 5), p."developer_id", p."customer_id", p."product_id", p."license_id", 'purchase', p."id", p."amount", p."currency",
  CASE WHEN p."payment_id" LIKE 'pi_sandbox%' THEN 'sandbox' ELSE 'stripe' END, p."payment_id", NULL,
  CASE WHEN l."status" = 'revoked' THEN 'refunded' ELSE 'paid' END, p."created_at", NULL
FROM "purchases" p JOIN "licenses" l ON l."id" = p."license_id"
WHERE p."status" = 'paid' ON CONFLICT DO NOTHING;--> statement-breakpoint
-- The outbox. Each trigger writes its event in the transaction of the change it reports, so an
-- event exists exactly when its change does. Payloads are snapshots taken at that moment.
-- Functions keep the schema they were created in (SET search_path FROM CURRENT).
CREATE FUNCTION "licensing_now"() RETURNS bigint LANGUAGE sql VOLATILE AS $$ SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint $$;--> statement-breakpoint
CREATE FUNCTION "licensing_event_id"(prefix text) RETURNS text LANGUAGE sql VOLATILE AS $$ SELECT prefix || '_' || replace(gen_random_uuid()::text, '-', '') $$;--> statement-breakpoint
CREATE FUNCTION "licensing_license_json"(l "licenses", status text) RETURNS jsonb LANGUAGE sql STABLE SET search_path FROM CURRENT AS $$
  SELECT jsonb_build_object('id', l.id, 'productId', l.product_id, 'customerId', l.customer_id,
    'customerEmail', (SELECT c.email FROM customers c WHERE c.id = l.customer_id),
    -- drizzle on Bun's driver stores jsonb as a JSON string holding the array's text: unwrap it.
    'status', status, 'features', CASE WHEN jsonb_typeof(l.features) = 'string' THEN (l.features #>> '{}')::jsonb ELSE l.features END, 'issuedAt', l.issued_at, 'expiresAt', l.expires_at, 'trial', l.trial, 'subscriptionId', l.subscription_id)
$$;--> statement-breakpoint
CREATE FUNCTION "licensing_order_json"(o "orders") RETURNS jsonb LANGUAGE sql STABLE SET search_path FROM CURRENT AS $$
  SELECT jsonb_build_object('id', o.id, 'productId', o.product_id, 'customerId', o.customer_id,
    'customerEmail', (SELECT c.email FROM customers c WHERE c.id = o.customer_id),
    'licenseId', o.license_id, 'source', o.source, 'amount', o.amount, 'currency', o.currency, 'processor', o.processor,
    'paymentId', o.payment_id, 'processorReference', o.processor_reference, 'status', o.status, 'createdAt', o.created_at, 'refundedAt', o.refunded_at)
$$;--> statement-breakpoint
CREATE FUNCTION "licensing_emit"(developer text, kind text, payload jsonb) RETURNS void LANGUAGE sql VOLATILE SET search_path FROM CURRENT AS $$
  INSERT INTO outgoing_events (id, developer_id, type, data, created_at) VALUES (licensing_event_id('msg'), developer, kind, payload, licensing_now())
$$;--> statement-breakpoint
CREATE FUNCTION "event_license_created"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO developer_customers (developer_id, customer_id, email, first_seen_at)
    SELECT NEW.developer_id, NEW.customer_id, c.email, NEW.issued_at FROM customers c WHERE c.id = NEW.customer_id
    ON CONFLICT DO NOTHING;
  PERFORM licensing_emit(NEW.developer_id, 'license.created', jsonb_build_object('license', licensing_license_json(NEW, NEW.status)));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "event_license_created" AFTER INSERT ON "licenses" FOR EACH ROW EXECUTE FUNCTION "event_license_created"();--> statement-breakpoint
CREATE FUNCTION "event_license_changed"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE kind text; state text;
BEGIN
  IF OLD.status = 'active' AND NEW.status = 'revoked' THEN kind := 'license.revoked'; state := 'revoked';
  ELSIF OLD.trial AND NOT NEW.trial THEN kind := 'license.converted'; state := 'active';
  ELSIF NOT OLD.trial AND NOT NEW.trial AND NEW.expires_at > OLD.expires_at THEN kind := 'license.renewed'; state := 'active';
  ELSIF NEW.status = 'active' AND OLD.expiry_announced_at IS NULL AND NEW.expiry_announced_at IS NOT NULL THEN kind := 'license.expired'; state := 'expired';
  ELSE RETURN NULL;
  END IF;
  IF state = 'active' AND NEW.expires_at IS NOT NULL AND NEW.expires_at <= licensing_now() THEN state := 'expired'; END IF;
  PERFORM licensing_emit(NEW.developer_id, kind, jsonb_build_object('license', licensing_license_json(NEW, state)));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "event_license_changed" AFTER UPDATE ON "licenses" FOR EACH ROW EXECUTE FUNCTION "event_license_changed"();--> statement-breakpoint
CREATE FUNCTION "event_activation"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE a activations; kind text;
BEGIN
  IF TG_OP = 'INSERT' THEN a := NEW; kind := 'activation.created'; ELSE a := OLD; kind := 'activation.deleted'; END IF;
  PERFORM licensing_emit(l.developer_id, kind, jsonb_build_object('activation', jsonb_build_object('id', a.id, 'licenseId', a.license_id,
      'productId', l.product_id, 'customerId', l.customer_id, 'machineFingerprint', a.machine_fingerprint, 'name', a.name, 'createdAt', a.created_at)))
    FROM licenses l WHERE l.id = a.license_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "event_activation" AFTER INSERT OR DELETE ON "activations" FOR EACH ROW EXECUTE FUNCTION "event_activation"();--> statement-breakpoint
CREATE FUNCTION "event_order"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM licensing_emit(NEW.developer_id, 'order.completed', jsonb_build_object('order', licensing_order_json(NEW)));
  ELSIF OLD.status = 'paid' AND NEW.status = 'refunded' THEN
    PERFORM licensing_emit(NEW.developer_id, 'order.refunded', jsonb_build_object('order', licensing_order_json(NEW)));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "event_order" AFTER INSERT OR UPDATE OF "status" ON "orders" FOR EACH ROW EXECUTE FUNCTION "event_order"();--> statement-breakpoint
CREATE FUNCTION "event_checkout_expired"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF OLD.status = 'pending' AND NEW.status = 'expired' THEN
    PERFORM licensing_emit(NEW.developer_id, 'checkout.expired', jsonb_build_object('checkout', jsonb_build_object('id', NEW.id,
      'productId', NEW.product_id, 'email', NEW.email, 'amount', NEW.amount, 'currency', NEW.currency, 'createdAt', NEW.created_at, 'expiresAt', NEW.expires_at)));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "event_checkout_expired" AFTER UPDATE OF "status" ON "checkout_sessions" FOR EACH ROW EXECUTE FUNCTION "event_checkout_expired"();--> statement-breakpoint
-- Fan-out: one delivery per enabled endpoint of the seller that listens for the type, due at once.
CREATE FUNCTION "event_fan_out"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO webhook_deliveries (id, event_id, endpoint_id, developer_id, status, attempts, next_attempt_at, created_at)
  SELECT licensing_event_id('del'), NEW.id, e.id, NEW.developer_id, 'pending', 0, 0, NEW.created_at
  FROM webhook_endpoints e
  WHERE e.developer_id = NEW.developer_id AND e.enabled AND (e.events IS NULL OR e.events ? NEW.type);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "event_fan_out" AFTER INSERT ON "outgoing_events" FOR EACH ROW EXECUTE FUNCTION "event_fan_out"();
