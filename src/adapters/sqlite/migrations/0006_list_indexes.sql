CREATE INDEX `licenses_developer_status_expiry` ON `licenses` (`developer_id`,`status`,`expires_at`,`id`);--> statement-breakpoint
CREATE INDEX `orders_developer_product` ON `orders` (`developer_id`,`product_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `orders_developer_customer` ON `orders` (`developer_id`,`customer_id`,`created_at`,`id`);