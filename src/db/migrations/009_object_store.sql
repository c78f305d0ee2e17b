-- The object store in the database (src/storage/postgres.ts): artifact objects as rows, for
-- deployments that keep everything in PostgreSQL (or in embedded PGlite). One row per object,
-- its bytes in fixed-size chunks of `chunk_size` bytes (the last one shorter), so a byte range
-- maps to a range of `seq` and is read without touching the other chunks.
-- A write inserts the object incomplete, adds its chunks, then marks it complete with its size
-- and hash in one UPDATE: readers see only complete objects. An incomplete object is a temp
-- write (listed as temporary for the orphan sweep; `modified_at` moves with every chunk).

CREATE TABLE storage_objects (
  key         text PRIMARY KEY,
  size        bigint NOT NULL DEFAULT 0 CHECK (size >= 0),   -- bytes written so far; final once complete
  sha256      text,                                           -- hex, set when complete
  chunk_size  integer NOT NULL CHECK (chunk_size > 0),        -- every chunk but the last has this many bytes
  complete    boolean NOT NULL DEFAULT false,
  created_at  timestamptz NOT NULL DEFAULT now(),
  modified_at timestamptz NOT NULL DEFAULT now(),
  CHECK (NOT complete OR sha256 IS NOT NULL)
);

CREATE TABLE storage_chunks (
  key  text NOT NULL REFERENCES storage_objects(key) ON DELETE CASCADE,
  seq  integer NOT NULL CHECK (seq >= 0),
  data bytea NOT NULL,
  PRIMARY KEY (key, seq)
);
-- Artifacts are zips (already compressed): keep chunks out of line and uncompressed, which
-- also lets substring() read a slice of a chunk without detoasting all of it.
ALTER TABLE storage_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
