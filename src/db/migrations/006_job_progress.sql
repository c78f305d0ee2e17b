-- Structured progress beside `message` (e.g. epoch, epochs, train_loss, val_metric), reported
-- by any job type through its run context and shown by /jobs/status and /jobs/info.
ALTER TABLE jobs ADD COLUMN progress_detail jsonb;
