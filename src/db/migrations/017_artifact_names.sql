-- Artifact names (docs/artifacts.md, "Names"): an upload keeps the name it was given (the `name`
-- field) or its file's name; a job result is named after its job type and output ports. Shown
-- in GET /artifacts and GET /artifacts/{id}. Written by src/modules/artifacts/store.ts.
ALTER TABLE artifacts ADD COLUMN name text;

-- Rows from before: a file upload's one record is its file's base name; a molecule set or archive
-- upload never kept its file's name; a job result lists its ports other than `result`.
UPDATE artifacts a SET name = left(CASE
    WHEN a.origin = 'upload' AND a.upload_mode = 'file' AND a.manifest->'ports'->'file'->'records'->0->>'id' IS NOT NULL
      THEN a.manifest->'ports'->'file'->'records'->0->>'id'
    WHEN a.origin = 'upload' THEN coalesce(a.upload_mode, 'archive') || ' upload'
    ELSE a.job_type || coalesce(': ' || (SELECT string_agg(p.port, ', ' ORDER BY p.port) FROM artifact_ports p WHERE p.artifact_id = a.id AND p.port <> 'result'), ' result')
  END, 200);

ALTER TABLE artifacts ALTER COLUMN name SET NOT NULL;
