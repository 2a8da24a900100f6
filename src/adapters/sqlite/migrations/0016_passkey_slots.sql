ALTER TABLE `passkeys` ADD `slot` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Hand-written: the live passkeys already there take places 0, 1, … in the order they were made, before the index holds them apart.
UPDATE passkeys SET slot = (SELECT count(*) FROM passkeys older WHERE older.developer_id = passkeys.developer_id AND older.revoked_at IS NULL
  AND (older.created_at < passkeys.created_at OR (older.created_at = passkeys.created_at AND older.id < passkeys.id))) WHERE revoked_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `passkeys_live_slot` ON `passkeys` (`developer_id`,`slot`) WHERE revoked_at IS NULL;