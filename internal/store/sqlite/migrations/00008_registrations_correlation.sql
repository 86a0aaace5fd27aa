-- A retried registration is answered from the reply kept under its
-- correlation id; a synchronous one's 200 body names no request, so the
-- replay finds the request's id (for X-Request-ID) by the correlation id
-- it was stored with, on this index.

-- +goose Up
CREATE INDEX registrations_correlation ON registrations (user_name, correlation_id, request_date);

-- +goose Down
DROP INDEX registrations_correlation;
