CREATE TABLE "daily_stats" (
	"developer_id" text NOT NULL,
	"day" integer NOT NULL,
	"currency" text NOT NULL,
	"new_licenses" integer DEFAULT 0 NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"revenue" bigint DEFAULT 0 NOT NULL,
	"refunded" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_stats_developer_id_day_currency_pk" PRIMARY KEY("developer_id","day","currency")
);
--> statement-breakpoint
CREATE TABLE "license_expiry_days" (
	"developer_id" text NOT NULL,
	"day" integer NOT NULL,
	"licenses" integer DEFAULT 0 NOT NULL,
	"machines" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "license_expiry_days_developer_id_day_pk" PRIMARY KEY("developer_id","day")
);
--> statement-breakpoint
CREATE TABLE "subscription_counts" (
	"developer_id" text NOT NULL,
	"product_id" text NOT NULL,
	"interval" text NOT NULL,
	"subscriptions" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "subscription_counts_developer_id_product_id_interval_pk" PRIMARY KEY("developer_id","product_id","interval")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "last_used_at" bigint;--> statement-breakpoint
ALTER TABLE "outgoing_events" ADD COLUMN "license_id" text;--> statement-breakpoint
CREATE INDEX "outgoing_events_license_order" ON "outgoing_events" USING btree ("license_id","created_at",id COLLATE "C");--> statement-breakpoint
-- Hand-written: the console's rollups (docs/console-api.md) are kept by triggers, in the statement that changes their rows,
-- so every write path (and any bulk load, COPY included) keeps them exact; concurrent writers queue on the rollup row they
-- add to, so none is lost. Days are UTC days since the epoch; a perpetual license's expiry day is 2147483647. Then they are
-- filled from the rows already there, and events get the license they are about.
-- Each change rewrites a rollup row (the perpetual licenses' expiry row with every new perpetual license): room left in each
-- page keeps those updates HOT, and autovacuum comes early, so the dead versions do not pile up under the seller's reads.
ALTER TABLE daily_stats SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000);
--> statement-breakpoint
ALTER TABLE license_expiry_days SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000);
--> statement-breakpoint
ALTER TABLE subscription_counts SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000);
--> statement-breakpoint
CREATE FUNCTION console_stats_licenses() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE daily_stats SET new_licenses = new_licenses - 1 WHERE developer_id = OLD.developer_id AND day = OLD.issued_at / 86400000 AND currency = '';
  END IF;
  IF TG_OP <> 'INSERT' AND OLD.status = 'active' THEN
    UPDATE license_expiry_days SET licenses = licenses - 1, machines = machines - (SELECT count(*) FROM activations WHERE license_id = OLD.id)
      WHERE developer_id = OLD.developer_id AND day = COALESCE(OLD.expires_at / 86400000, 2147483647);
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO daily_stats (developer_id, day, currency, new_licenses) VALUES (NEW.developer_id, NEW.issued_at / 86400000, '', 1)
      ON CONFLICT (developer_id, day, currency) DO UPDATE SET new_licenses = daily_stats.new_licenses + 1;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.status = 'active' THEN
    INSERT INTO license_expiry_days (developer_id, day, licenses, machines)
      VALUES (NEW.developer_id, COALESCE(NEW.expires_at / 86400000, 2147483647), 1, (SELECT count(*) FROM activations WHERE license_id = NEW.id))
      ON CONFLICT (developer_id, day) DO UPDATE SET licenses = license_expiry_days.licenses + 1, machines = license_expiry_days.machines + EXCLUDED.machines;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER console_stats_licenses AFTER INSERT OR DELETE ON licenses FOR EACH ROW EXECUTE FUNCTION console_stats_licenses();
--> statement-breakpoint
CREATE TRIGGER console_stats_licenses_update AFTER UPDATE OF status, expires_at, developer_id ON licenses FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.expires_at IS DISTINCT FROM NEW.expires_at OR OLD.developer_id IS DISTINCT FROM NEW.developer_id)
  EXECUTE FUNCTION console_stats_licenses();
--> statement-breakpoint
CREATE FUNCTION console_stats_activations() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  UPDATE license_expiry_days SET machines = machines + (CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END)
    WHERE (developer_id, day) = (SELECT l.developer_id, COALESCE(l.expires_at / 86400000, 2147483647)::integer FROM licenses l
                                 WHERE l.id = (CASE WHEN TG_OP = 'INSERT' THEN NEW.license_id ELSE OLD.license_id END) AND l.status = 'active');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER console_stats_activations AFTER INSERT OR DELETE ON activations FOR EACH ROW EXECUTE FUNCTION console_stats_activations();
--> statement-breakpoint
CREATE FUNCTION console_stats_orders() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE daily_stats SET orders = orders - 1, revenue = revenue - OLD.amount, refunded = refunded - OLD.amount_refunded
      WHERE developer_id = OLD.developer_id AND day = OLD.created_at / 86400000 AND currency = OLD.currency;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO daily_stats (developer_id, day, currency, orders, revenue, refunded)
      VALUES (NEW.developer_id, NEW.created_at / 86400000, NEW.currency, 1, NEW.amount, NEW.amount_refunded)
      ON CONFLICT (developer_id, day, currency) DO UPDATE
      SET orders = daily_stats.orders + 1, revenue = daily_stats.revenue + EXCLUDED.revenue, refunded = daily_stats.refunded + EXCLUDED.refunded;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER console_stats_orders AFTER INSERT OR DELETE ON orders FOR EACH ROW EXECUTE FUNCTION console_stats_orders();
--> statement-breakpoint
CREATE TRIGGER console_stats_orders_update AFTER UPDATE OF amount, amount_refunded, currency, created_at, developer_id ON orders FOR EACH ROW
  WHEN (OLD.amount IS DISTINCT FROM NEW.amount OR OLD.amount_refunded IS DISTINCT FROM NEW.amount_refunded OR OLD.currency IS DISTINCT FROM NEW.currency
        OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.developer_id IS DISTINCT FROM NEW.developer_id)
  EXECUTE FUNCTION console_stats_orders();
--> statement-breakpoint
CREATE FUNCTION console_stats_subscriptions() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.status <> 'canceled' THEN
    UPDATE subscription_counts SET subscriptions = subscriptions - 1
      WHERE developer_id = OLD.developer_id AND product_id = OLD.product_id AND interval = OLD.interval;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.status <> 'canceled' THEN
    INSERT INTO subscription_counts (developer_id, product_id, interval, subscriptions) VALUES (NEW.developer_id, NEW.product_id, NEW.interval, 1)
      ON CONFLICT (developer_id, product_id, interval) DO UPDATE SET subscriptions = subscription_counts.subscriptions + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER console_stats_subscriptions AFTER INSERT OR DELETE ON subscriptions FOR EACH ROW EXECUTE FUNCTION console_stats_subscriptions();
--> statement-breakpoint
CREATE TRIGGER console_stats_subscriptions_update AFTER UPDATE OF status, product_id, interval, developer_id ON subscriptions FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.product_id IS DISTINCT FROM NEW.product_id OR OLD.interval IS DISTINCT FROM NEW.interval
        OR OLD.developer_id IS DISTINCT FROM NEW.developer_id)
  EXECUTE FUNCTION console_stats_subscriptions();
--> statement-breakpoint
INSERT INTO daily_stats (developer_id, day, currency, new_licenses)
  SELECT developer_id, issued_at / 86400000, '', count(*) FROM licenses GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO daily_stats (developer_id, day, currency, orders, revenue, refunded)
  SELECT developer_id, created_at / 86400000, currency, count(*), sum(amount), sum(amount_refunded) FROM orders GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO license_expiry_days (developer_id, day, licenses, machines)
  SELECT l.developer_id, COALESCE(l.expires_at / 86400000, 2147483647), count(*), sum((SELECT count(*) FROM activations a WHERE a.license_id = l.id))
  FROM licenses l WHERE l.status = 'active' GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO subscription_counts (developer_id, product_id, interval, subscriptions)
  SELECT developer_id, product_id, interval, count(*) FROM subscriptions WHERE status <> 'canceled' GROUP BY 1, 2, 3;
--> statement-breakpoint
UPDATE outgoing_events SET license_id = COALESCE(data->'license'->>'id', data->'activation'->>'licenseId', data->'order'->>'licenseId');
