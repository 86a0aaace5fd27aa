-- Replies kept for retries are keyed by the correlation id as the service
-- keys a retry now: a UUID in any form Go's uuid.Parse reads (braces or any
-- one character either side, urn:uuid:, no dashes, upper case) as its
-- lower-case dashed form. Replies kept before that change were keyed by
-- the form sent, and a retry of such a request after an upgrade would
-- have been taken for a new request. Where two forms of one UUID were
-- kept for one user, the canonical one (or else one of them) keeps the key
-- and the others stay as they were, found by no retry, until retention
-- deletes them.

-- +goose Up
-- A replica still serving may keep a retry's reply under a key this
-- moves another to; the lock holds such writes (not reads) until the
-- migration commits, so neither fails.
LOCK TABLE replies IN SHARE ROW EXCLUSIVE MODE;
WITH candidates AS (
    SELECT user_name, correlation_id, created_at, lower(CASE length(correlation_id)
            WHEN 36 THEN correlation_id
            WHEN 38 THEN substr(correlation_id, 2, 36)
            WHEN 45 THEN CASE WHEN lower(substr(correlation_id, 1, 9)) = 'urn:uuid:' THEN substr(correlation_id, 10) END
            WHEN 32 THEN concat_ws('-', substr(correlation_id, 1, 8), substr(correlation_id, 9, 4),
                substr(correlation_id, 13, 4), substr(correlation_id, 17, 4), substr(correlation_id, 21))
        END) AS u
    FROM replies
    -- ASCII only: SQL counts characters, Go's uuid.Parse bytes
    WHERE length(correlation_id) IN (32, 36, 38, 45) AND octet_length(correlation_id) = length(correlation_id)
), first AS (
    -- One per user and UUID, and none where the canonical key is taken:
    -- the key is unique.
    SELECT DISTINCT ON (user_name, u) user_name, correlation_id, u
    FROM candidates c
    WHERE u <> correlation_id AND u ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
        AND NOT EXISTS (SELECT 1 FROM replies r WHERE r.user_name = c.user_name AND r.correlation_id = c.u)
    ORDER BY user_name, u, created_at, correlation_id
)
UPDATE replies r SET correlation_id = first.u
FROM first
WHERE r.user_name = first.user_name AND r.correlation_id = first.correlation_id;

-- +goose Down
-- Nothing to undo: the earlier code finds a reply under a lower-case
-- dashed UUID too, when a retry sends that form.
SELECT 1;
