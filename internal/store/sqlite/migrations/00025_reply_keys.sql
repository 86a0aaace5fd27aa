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
WITH candidates AS (
    SELECT rowid AS id, correlation_id, CASE length(correlation_id)
            WHEN 36 THEN correlation_id
            WHEN 38 THEN substr(correlation_id, 2, 36)
            WHEN 45 THEN iif(lower(substr(correlation_id, 1, 9)) = 'urn:uuid:', substr(correlation_id, 10), NULL)
            WHEN 32 THEN substr(correlation_id, 1, 8) || '-' || substr(correlation_id, 9, 4) || '-' ||
                substr(correlation_id, 13, 4) || '-' || substr(correlation_id, 17, 4) || '-' || substr(correlation_id, 21)
        END AS u
    FROM replies
    -- ASCII only: SQL counts characters, Go's uuid.Parse bytes
    WHERE length(correlation_id) IN (32, 36, 38, 45) AND octet_length(correlation_id) = length(correlation_id)
)
UPDATE OR IGNORE replies SET correlation_id = lower(c.u)
FROM candidates c
WHERE replies.rowid = c.id AND lower(c.u) <> c.correlation_id
    AND substr(c.u, 9, 1) = '-' AND substr(c.u, 14, 1) = '-' AND substr(c.u, 19, 1) = '-' AND substr(c.u, 24, 1) = '-'
    AND length(replace(c.u, '-', '')) = 32 AND replace(c.u, '-', '') NOT GLOB '*[^0-9A-Fa-f]*';

-- +goose Down
-- Nothing to undo: the earlier code finds a reply under a lower-case
-- dashed UUID too, when a retry sends that form.
SELECT 1;
