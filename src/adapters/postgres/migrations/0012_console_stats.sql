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
-- add to (INSERT … ON CONFLICT DO UPDATE adds to the row as it is when its lock is had), so none is lost. Days are UTC days since the epoch; a perpetual license's expiry day is 2147483647. Then they are
-- filled from the rows already there, and events get the license they are about.
-- Each change rewrites a rollup row (the perpetual licenses' expiry row with every new perpetual license): room left in each
-- page keeps those updates HOT, and autovacuum comes early, so the dead versions do not pile up under the seller's reads.
ALTER TABLE daily_stats SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000);
--> statement-breakpoint
ALTER TABLE license_expiry_days SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000);
--> statement-breakpoint
ALTER TABLE subscription_counts SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000);
--> statement-breakpoint
-- Licenses, machines and orders: statement-level triggers over the statement's transition tables, so a bulk INSERT … SELECT
-- adds to each rollup row once per statement (grouped), not once per row: repeated updates of one row inside one transaction
-- would each walk the row's earlier versions. Each branch reads only the transition tables its event has.
CREATE FUNCTION console_stats_licenses() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO daily_stats (developer_id, day, currency, new_licenses)
      SELECT developer_id, issued_at / 86400000, '', count(*) FROM new_rows GROUP BY 1, 2
      ON CONFLICT (developer_id, day, currency) DO UPDATE SET new_licenses = daily_stats.new_licenses + EXCLUDED.new_licenses;
    INSERT INTO license_expiry_days (developer_id, day, licenses, machines)
      SELECT n.developer_id, COALESCE(n.expires_at / 86400000, 2147483647), count(*), sum((SELECT count(*) FROM activations a WHERE a.license_id = n.id))
      FROM new_rows n WHERE n.status = 'active' GROUP BY 1, 2
      ON CONFLICT (developer_id, day) DO UPDATE
      SET licenses = license_expiry_days.licenses + EXCLUDED.licenses, machines = license_expiry_days.machines + EXCLUDED.machines;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE daily_stats d SET new_licenses = d.new_licenses - gone.n
      FROM (SELECT developer_id, issued_at / 86400000 AS day, count(*) AS n FROM old_rows GROUP BY 1, 2) gone
      WHERE d.developer_id = gone.developer_id AND d.day = gone.day AND d.currency = '';
    UPDATE license_expiry_days x SET licenses = x.licenses - gone.n, machines = x.machines - gone.m
      FROM (SELECT o.developer_id, COALESCE(o.expires_at / 86400000, 2147483647) AS day, count(*) AS n,
                   sum((SELECT count(*) FROM activations a WHERE a.license_id = o.id)) AS m
            FROM old_rows o WHERE o.status = 'active' GROUP BY 1, 2) gone
      WHERE x.developer_id = gone.developer_id AND x.day = gone.day;
  ELSE
    -- Only the licenses whose seller, status or expiry changed: out of the old expiry day, into the new one.
    INSERT INTO license_expiry_days (developer_id, day, licenses, machines)
      SELECT developer_id, day, sum(n), sum(m) FROM (
        SELECT o.developer_id, COALESCE(o.expires_at / 86400000, 2147483647) AS day, -1 AS n, -(SELECT count(*) FROM activations a WHERE a.license_id = o.id) AS m
        FROM old_rows o JOIN new_rows w ON w.id = o.id
        WHERE o.status = 'active' AND (o.status IS DISTINCT FROM w.status OR o.expires_at IS DISTINCT FROM w.expires_at OR o.developer_id IS DISTINCT FROM w.developer_id)
        UNION ALL
        SELECT w.developer_id, COALESCE(w.expires_at / 86400000, 2147483647), 1, (SELECT count(*) FROM activations a WHERE a.license_id = w.id)
        FROM old_rows o JOIN new_rows w ON w.id = o.id
        WHERE w.status = 'active' AND (o.status IS DISTINCT FROM w.status OR o.expires_at IS DISTINCT FROM w.expires_at OR o.developer_id IS DISTINCT FROM w.developer_id)
      ) moved GROUP BY 1, 2
      ON CONFLICT (developer_id, day) DO UPDATE
      SET licenses = license_expiry_days.licenses + EXCLUDED.licenses, machines = license_expiry_days.machines + EXCLUDED.machines;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER console_stats_licenses_insert AFTER INSERT ON licenses REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION console_stats_licenses();
--> statement-breakpoint
CREATE TRIGGER console_stats_licenses_update AFTER UPDATE ON licenses REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION console_stats_licenses();
--> statement-breakpoint
CREATE TRIGGER console_stats_licenses_delete AFTER DELETE ON licenses REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION console_stats_licenses();
--> statement-breakpoint
CREATE FUNCTION console_stats_activations() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE license_expiry_days x SET machines = x.machines + added.n
      FROM (SELECT l.developer_id, COALESCE(l.expires_at / 86400000, 2147483647) AS day, count(*) AS n
            FROM new_rows a JOIN licenses l ON l.id = a.license_id WHERE l.status = 'active' GROUP BY 1, 2) added
      WHERE x.developer_id = added.developer_id AND x.day = added.day;
  ELSE
    UPDATE license_expiry_days x SET machines = x.machines - gone.n
      FROM (SELECT l.developer_id, COALESCE(l.expires_at / 86400000, 2147483647) AS day, count(*) AS n
            FROM old_rows a JOIN licenses l ON l.id = a.license_id WHERE l.status = 'active' GROUP BY 1, 2) gone
      WHERE x.developer_id = gone.developer_id AND x.day = gone.day;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER console_stats_activations_insert AFTER INSERT ON activations REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION console_stats_activations();
--> statement-breakpoint
CREATE TRIGGER console_stats_activations_delete AFTER DELETE ON activations REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION console_stats_activations();
--> statement-breakpoint
CREATE FUNCTION console_stats_orders() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO daily_stats (developer_id, day, currency, orders, revenue, refunded)
      SELECT developer_id, created_at / 86400000, currency, count(*), sum(amount), sum(amount_refunded) FROM new_rows GROUP BY 1, 2, 3
      ON CONFLICT (developer_id, day, currency) DO UPDATE
      SET orders = daily_stats.orders + EXCLUDED.orders, revenue = daily_stats.revenue + EXCLUDED.revenue, refunded = daily_stats.refunded + EXCLUDED.refunded;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE daily_stats d SET orders = d.orders - gone.n, revenue = d.revenue - gone.paid, refunded = d.refunded - gone.back
      FROM (SELECT developer_id, created_at / 86400000 AS day, currency, count(*) AS n, sum(amount) AS paid, sum(amount_refunded) AS back FROM old_rows GROUP BY 1, 2, 3) gone
      WHERE d.developer_id = gone.developer_id AND d.day = gone.day AND d.currency = gone.currency;
  ELSE
    -- A refund (amount_refunded) or any other change of the figures: the old row's out, the new row's in.
    INSERT INTO daily_stats (developer_id, day, currency, orders, revenue, refunded)
      SELECT developer_id, day, currency, sum(n), sum(paid), sum(back) FROM (
        SELECT o.developer_id, o.created_at / 86400000 AS day, o.currency, -1 AS n, -o.amount::bigint AS paid, -o.amount_refunded::bigint AS back
        FROM old_rows o JOIN new_rows w ON w.id = o.id
        WHERE (o.amount, o.amount_refunded, o.currency, o.created_at, o.developer_id) IS DISTINCT FROM (w.amount, w.amount_refunded, w.currency, w.created_at, w.developer_id)
        UNION ALL
        SELECT w.developer_id, w.created_at / 86400000, w.currency, 1, w.amount::bigint, w.amount_refunded::bigint
        FROM old_rows o JOIN new_rows w ON w.id = o.id
        WHERE (o.amount, o.amount_refunded, o.currency, o.created_at, o.developer_id) IS DISTINCT FROM (w.amount, w.amount_refunded, w.currency, w.created_at, w.developer_id)
      ) changed GROUP BY 1, 2, 3
      ON CONFLICT (developer_id, day, currency) DO UPDATE
      SET orders = daily_stats.orders + EXCLUDED.orders, revenue = daily_stats.revenue + EXCLUDED.revenue, refunded = daily_stats.refunded + EXCLUDED.refunded;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER console_stats_orders_insert AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION console_stats_orders();
--> statement-breakpoint
CREATE TRIGGER console_stats_orders_update AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION console_stats_orders();
--> statement-breakpoint
CREATE TRIGGER console_stats_orders_delete AFTER DELETE ON orders REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION console_stats_orders();
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
