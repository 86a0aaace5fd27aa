-- A trackingId is unique for a user and a request type, as the live
-- service has it (its code 25: "used for the specified software key, user
-- and request type"): a transfer and its correction may share one.

-- +goose Up
DROP INDEX requests_tracking;
CREATE UNIQUE INDEX requests_tracking ON requests (user_name, type, tracking_id) WHERE tracking_id IS NOT NULL;

-- +goose Down
DROP INDEX requests_tracking;
CREATE UNIQUE INDEX requests_tracking ON requests (user_name, tracking_id) WHERE tracking_id IS NOT NULL;
