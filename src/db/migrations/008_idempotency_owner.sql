-- The claim of an in-flight request carries its owner's token: the owner renews a short lease
-- while the request runs, a retry takes over only an expired lease (its owner died), and only
-- the owner can pin the response (docs/api-decisions.md, "Idempotency").
ALTER TABLE idempotency_keys ADD COLUMN owner text;
