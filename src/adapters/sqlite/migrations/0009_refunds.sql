ALTER TABLE `orders` ADD `amount_refunded` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `period_start` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `period_end` integer;--> statement-breakpoint
-- Hand-written (data migration): orders refunded before amounts were kept had all of their amount refunded.
UPDATE `orders` SET `amount_refunded` = `amount` WHERE `status` = 'refunded';
