ALTER TABLE `signing_keys` ADD `not_before` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `signing_keys` ADD `endorsement` text;--> statement-breakpoint
ALTER TABLE `signing_keys` ADD `compromised_at` integer;--> statement-breakpoint
ALTER TABLE `signing_keys` ADD `retirement` text;--> statement-breakpoint
-- Hand-written data migration (key rotation): a key made before staged rotations signed from the moment it was made.
UPDATE `signing_keys` SET `not_before` = `created_at`;