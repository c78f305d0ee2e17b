export interface paths {
    "/api/v1/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process serves requests */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: the database answers */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/login-email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Log in with email and password (form body) */
        post: operations["loginWithEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Check a credential (X-Api-Key or Authorization: Bearer) */
        get: operations["checkCredential"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deprecated: refresh with the token in the URL (use POST /auth/refresh)
         * @deprecated
         * @description Deprecated on 2026-09-29; refuses after Fri, 01 Jan 2027 00:00:00 GMT. Sends the refresh token in the URL, where logs keep it.
         */
        get: operations["refreshTokensDeprecated"];
        put?: never;
        /** Exchange a refresh token for a new token pair */
        post: operations["refreshTokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** End the session of the access token */
        get: operations["logout"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/wallet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Wallet balance and active reservations */
        get: operations["getWallet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/wallet/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The wallet's append-only ledger, newest first
         * @description Every move of the account's money: credits, debits, holds at submit, their release and the charges, with the job, workflow run or Assistant turn each is for. The balance is the sum of `amount_usd`; the reserved total the sum of `reserved_delta_usd`. Paged by `before` (the last `entry_id` of a page).
         */
        get: operations["listLedgerEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your API keys */
        get: operations["listApiKeys"];
        put?: never;
        /** Create an API key (the secret is returned once) */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/api-keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one API key */
        get: operations["getApiKey"];
        put?: never;
        post?: never;
        /** Revoke (delete) an API key */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        /** Rename a key or change allow_structure_search */
        patch: operations["renameApiKey"];
        trace?: never;
    };
    "/api/v1/auth/api-keys/{key_id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate: new secret now, the old one stops working at once */
        post: operations["rotateApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Completion events of your jobs and workflow runs (gap-free cursor feed, optional long poll)
         * @description Follow the feed by passing each `next_cursor` back as `after`. With `wait` > 0 the call returns as soon as a matching event is committed, or after `wait` seconds with no events and the same cursor. A cursor whose events were removed by retention (30 days) answers 410 cursor-expired.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/artifacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your artifacts: one item per port (plus one per archive with include_archive), newest first */
        get: operations["listArtifacts"];
        put?: never;
        /** Upload a file, a molecule set (.smi, .csv, .sdf) or an artifact zip (multipart/form-data) */
        post: operations["uploadArtifact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/artifacts/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Artifact storage used and the quota of your tier */
        get: operations["getArtifactUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/artifacts/{artifact_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One artifact with its manifest */
        get: operations["getArtifact"];
        put?: never;
        post?: never;
        /** Delete an artifact (its row, then its file) */
        delete: operations["deleteArtifact"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/artifacts/{artifact_id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Download the whole zip, with record (and port) one record’s primary file, or with port alone that port (its one record’s file, or a zip of its records); Range requests work */
        get: operations["downloadArtifact"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/user-models/mpnn": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your trained MPNN models (or the one named) */
        get: operations["listUserModels"];
        put?: never;
        post?: never;
        /** Delete one of your MPNN models and its weights */
        delete: operations["deleteUserModel"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/models/public": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The public models shipped with Crucible, with their model cards */
        get: operations["listPublicModels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/depict": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Draw molecules (SVG) from SMILES
         * @description One item per input, in input order; a bad input yields an item carrying `error`, never a failed request.
         */
        post: operations["depictMolecules"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/depict/reactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Draw reactions (SVG) from reaction SMILES
         * @description Reactants, arrow, agents (above the arrow) when present, and products. One item per input, in input order.
         */
        post: operations["depictReactions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/describe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Molecular properties from SMILES
         * @description One item per input, in input order; a bad input yields an item carrying `error`, never a failed request.
         */
        post: operations["describeMolecules"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/estimate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Estimate the cost of a job (charges nothing) */
        post: operations["estimateJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/submit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Submit a job: reserves its estimated cost (charges your wallet at the actual runtime) */
        post: operations["submitJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/submit-multiple": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Submit several jobs, all or nothing */
        post: operations["submitJobs"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your jobs */
        get: operations["listJobs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A job in detail */
        get: operations["getJobInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A job's status and progress */
        get: operations["getJobStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/result": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The result of a completed job (409 job-not-finished before) */
        get: operations["getJobResult"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/result-multiple": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Results of up to 50 jobs: each id maps to its result or to a problem */
        get: operations["getJobResults"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Cancel a job; charges the runtime used */
        delete: operations["cancelJob"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a finished job and its result artifact */
        delete: operations["deleteJob"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/engines": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The compute engines (xtb, MOPAC, Open Babel, AutoDock Vina, Psi4, NWChem): which this server's workers found, their versions, and the job types they run */
        get: operations["listEngines"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/lookup/compounds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Compound names to PubChem CIDs, titles and SMILES
         * @description PubChem PUG-REST. Up to 20 names, each 1 to 100 characters. Only names are sent: a SMILES or InChI given as a name is a structure, answers `structure_egress_not_allowed` and is never sent, whoever asks. Every item carries the source, its licence and a status (`found`, `not_found`, `invalid_query`, `structure_egress_not_allowed`, `upstream_error`, `timeout`); a failing source fails its items only (200 overall). Answers are cached for 24 h. 503 `source-disabled` when the source is disabled on the server.
         */
        post: operations["lookupCompounds"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/lookup/bioactivity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * ChEMBL molecules, targets, activities, similarity and substructure search
         * @description ChEMBL REST. Operations: `molecule`, `target`, `molecule_activities`, `target_activities`, `similarity`, `substructure`. Molecule, target and the activities operations send only IDs and names (at most 100 characters). Similarity and substructure take SMILES (at most 500 characters) and run only for API keys with `allow_structure_search`; an InChI is sent in no operation, and a target name that carries a SMILES is sent only for such keys. `limit` rows per query 1 to 1000 (default 10); `threshold` (similarity, percent) 40 to 100 (default 70). Structures (SMILES, InChI) are sent to the source only for an API key with `allow_structure_search`; access tokens never send them. A structure held back answers the item status `structure_egress_not_allowed`. Every item carries the source, its licence and a status (`found`, `not_found`, `invalid_query`, `structure_egress_not_allowed`, `upstream_error`, `timeout`); a failing source fails its items only (200 overall). Answers are cached for 24 h. 503 `source-disabled` when the source is disabled on the server.
         */
        post: operations["lookupBioactivity"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/lookup/targets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open Targets target-disease associations and drugs
         * @description Open Targets Platform GraphQL. Operations: `target_associations`, `disease_associations`, `target_drugs`, `disease_drugs`, by gene symbol, Ensembl gene ID or disease ID/name. `limit` 1 to 100 (default 10). A query that carries a structure (an InChI, never sent; or a SMILES written with SMILES-only syntax: bonds, branches, brackets, ring-closure digits or aromatic atoms) is sent only for an API key with `allow_structure_search`, otherwise it answers `structure_egress_not_allowed`. All-uppercase strings such as the gene symbols `CS` or `CNP` are sent. Every item carries the source, its licence and a status (`found`, `not_found`, `invalid_query`, `structure_egress_not_allowed`, `upstream_error`, `timeout`); a failing source fails its items only (200 overall). Answers are cached for 24 h. 503 `source-disabled` when the source is disabled on the server.
         */
        post: operations["lookupTargets"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/lookup/proteins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * UniProt entries by accession, or search by gene or protein name
         * @description UniProt REST. Operations: `entry`, `search`. `organism` (search only): a name or a numeric NCBI taxon ID; a search returns 10 entries. A query that carries a structure (an InChI, never sent; or a SMILES written with SMILES-only syntax: bonds, branches, brackets, ring-closure digits or aromatic atoms) is sent only for an API key with `allow_structure_search`, otherwise it answers `structure_egress_not_allowed`. All-uppercase strings such as the gene symbols `CS` or `CNP` are sent. Every item carries the source, its licence and a status (`found`, `not_found`, `invalid_query`, `structure_egress_not_allowed`, `upstream_error`, `timeout`); a failing source fails its items only (200 overall). Answers are cached for 24 h. 503 `source-disabled` when the source is disabled on the server.
         */
        post: operations["lookupProteins"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/lookup/structures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * RCSB PDB entries by ID, by UniProt accession, or free-text search
         * @description RCSB PDB Search and Data APIs. Operations: `entry`, `by_uniprot`, `search`. `limit` 1 to 100 (default 10). A query that carries a structure (an InChI, never sent; or a SMILES written with SMILES-only syntax: bonds, branches, brackets, ring-closure digits or aromatic atoms) is sent only for an API key with `allow_structure_search`, otherwise it answers `structure_egress_not_allowed`. All-uppercase strings such as the gene symbols `CS` or `CNP` are sent. Every item carries the source, its licence and a status (`found`, `not_found`, `invalid_query`, `structure_egress_not_allowed`, `upstream_error`, `timeout`); a failing source fails its items only (200 overall). Answers are cached for 24 h. 503 `source-disabled` when the source is disabled on the server.
         */
        post: operations["lookupStructures"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/lookup/properties": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Measured (experimental) properties from PubChem
         * @description PubChem PUG-View. `operation` must be `experimental`; queries are CIDs or compound names. Default property set: boiling point, melting point, density, vapor pressure, heat of vaporization, viscosity, surface tension; `other` holds critical constants and other measured values (PubChem headings Critical Temperature & Pressure, Enthalpy of Sublimation, Dielectric Constant, Ionization Potential, Relative Evaporation Rate, Optical Rotation, Other Experimental Properties). Accepted names: `boiling_point`, `melting_point`, `density`, `vapor_pressure`, `heat_of_vaporization`, `viscosity`, `surface_tension`, `other`, `flash_point`, `autoignition_temperature`, `solubility`, `logp`, `vapor_density`, `refractive_index`, `heat_of_combustion`, `dissociation_constants`, `henrys_law_constant`, `decomposition`; every value names its PubChem `heading`. Up to `limit` values per property (default 3), each with its source reference; values from suppliers without an allowed licence are dropped and counted in `data.excluded`. A structure given as a name is never sent. Every item carries the source, its licence and a status (`found`, `not_found`, `invalid_query`, `structure_egress_not_allowed`, `upstream_error`, `timeout`); a failing source fails its items only (200 overall). Answers are cached for 24 h. 503 `source-disabled` when the source is disabled on the server.
         */
        post: operations["lookupProperties"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/papers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The references behind Crucible's methods and data */
        get: operations["listPapers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/papers/cite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What to cite for a job, a workflow run, or both: the papers of the methods they ran, with a BibTeX bundle */
        get: operations["citeResult"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/papers/{paper_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One reference, with its citation, BibTeX and RIS */
        get: operations["getPaper"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your monthly allowance of utility and inference calls, storage, keys, and this month’s jobs, workflow runs and Assistant turns */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/utilities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The utility tools: input schemas and limits */
        get: operations["listUtilities"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/utilities/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run a utility now (up to 100 molecules; counts 1 call against the monthly allowance) */
        post: operations["runUtility"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/utilities/submit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Submit a large utility request (up to 100,000 molecules or an uploaded set; counts ceil(molecules / 100) calls) */
        post: operations["submitUtilityRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/utilities/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your asynchronous utility requests, newest first */
        get: operations["listUtilityRequests"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/utilities/requests/{request_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A request: status, progress and, once completed, its result (inline up to 1 MiB) */
        get: operations["getUtilityRequest"];
        put?: never;
        post?: never;
        /** Cancel a request that is still running, or delete a finished one with its result */
        delete: operations["deleteUtilityRequest"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inference/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The models you can predict with: the public catalog and your MPNN models */
        get: operations["listInferenceModels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inference/predict": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Predict for up to 100 SMILES now (counts 1 call against the monthly allowance) */
        post: operations["predict"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inference/submit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Predict for up to 100,000 SMILES or an uploaded set, asynchronously (counts ceil(molecules / 100) calls) */
        post: operations["submitInferenceRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inference/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your inference requests, newest first */
        get: operations["listInferenceRequests"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inference/requests/{request_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A request: status, progress and counts */
        get: operations["getInferenceRequest"];
        put?: never;
        post?: never;
        /** Cancel a request that is still running, or delete a finished one with its predictions */
        delete: operations["deleteInferenceRequest"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inference/requests/{request_id}/result": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The predictions of a completed request: CSV (streamed) or, with format=json, a page */
        get: operations["getInferenceResult"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Validate a workflow spec (charges nothing): every problem with its location, and an order of the steps */
        post: operations["validateWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/estimate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Estimate a workflow run of a spec or a built-in template (charges nothing): total and per-step cost and runtime, with the run’s inputs if given; 422 with every problem of an invalid spec */
        post: operations["estimateWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Built-in templates: runnable specs (run with template_id, or fork into a definition) */
        get: operations["listWorkflowTemplates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your definitions and those shared with you (or, with deleted=true, your deleted ones) */
        get: operations["listWorkflows"];
        put?: never;
        /** Save a definition (version 1); 422 with every problem of an invalid spec */
        post: operations["createWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/shared/{share_token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A definition shared by link (any signed-in holder of the token) */
        get: operations["getSharedWorkflow"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{workflow_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A definition: its latest version, or ?version=N */
        get: operations["getWorkflow"];
        /** Save a new version; base_version must be the latest (else 409 version-conflict) */
        put: operations["updateWorkflow"];
        post?: never;
        /** Delete a definition (restorable for 30 days) */
        delete: operations["deleteWorkflow"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{workflow_id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Undelete a definition, or with {version} make an old version the latest (as a new version) */
        post: operations["restoreWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{workflow_id}/fork": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Copy a definition (yours, shared with you, or a template by its template_id) into a new one of yours */
        post: operations["forkWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{workflow_id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Version history, newest first */
        get: operations["listWorkflowVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{workflow_id}/share": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Share with a user by email (view or run), or create a link token (shown once) */
        post: operations["shareWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{workflow_id}/shares": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A definition's active shares (owner only) */
        get: operations["listWorkflowShares"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{workflow_id}/shares/{share_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a share at once */
        delete: operations["revokeWorkflowShare"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your runs */
        get: operations["listWorkflowRuns"];
        put?: never;
        /** Start a run of a saved definition, a share link, a template or an inline spec: reserves its estimate (charges your wallet at the steps’ runtime) */
        post: operations["startWorkflowRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/runs/{run_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A run with every step's state, job, progress and cost so far, and its outputs */
        get: operations["getWorkflowRun"];
        put?: never;
        post?: never;
        /** Delete a finished run with the jobs and artifacts it made */
        delete: operations["deleteWorkflowRun"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/runs/{run_id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Light status: state, steps done of total, progress, cost so far */
        get: operations["getWorkflowRunStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/runs/{run_id}/steps/{step_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One step: its job, its outputs once completed, its error */
        get: operations["getWorkflowRunStep"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/runs/{run_id}/outputs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The run's outputs as artifacts (download with GET /artifacts/{artifact_id}/download?port=...) */
        get: operations["getWorkflowRunOutputs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/runs/{run_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel the queued and running steps (their runtime is charged) and end the run; the rest of the reservation is released */
        post: operations["cancelWorkflowRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/runs/{run_id}/rerun": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new run of the same spec and inputs (charges your wallet); reuse_completed reuses outputs of unchanged completed steps */
        post: operations["rerunWorkflowRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/runs/{run_id}/graph": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The DAG with step states: SVG (default), JSON or Mermaid */
        get: operations["getWorkflowRunGraph"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assistant/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your sessions, most recently used first */
        get: operations["listAssistantSessions"];
        put?: never;
        /** A new session */
        post: operations["createAssistantSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assistant/sessions/{session_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A session with its messages and plan cards */
        get: operations["getAssistantSession"];
        put?: never;
        post?: never;
        /** Delete a session with its turns and plan cards (409 while a turn runs); runs started from its cards stay */
        delete: operations["deleteAssistantSession"];
        options?: never;
        head?: never;
        /** Rename a session */
        patch: operations["renameAssistantSession"];
        trace?: never;
    };
    "/api/v1/assistant/sessions/{session_id}/turns/estimate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Charges nothing: the token bounds of a turn with this message and the hold in USD */
        post: operations["estimateAssistantTurn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assistant/sessions/{session_id}/turns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The session's turns, oldest first */
        get: operations["listAssistantTurns"];
        put?: never;
        /** Start a turn: holds funds for its maximum tokens (402 insufficient-funds if short; 409 while another turn of the session runs); follow it on its stream */
        post: operations["startAssistantTurn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assistant/sessions/{session_id}/turns/{turn_id}/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The turn's events as Server-Sent Events, resumable with Last-Event-ID
         * @description `text/event-stream`. Each event has an `id` (its number in the turn, from 1), an `event` name and JSON `data`:
         *     - `delta` `{text}`: text of the answer, in order;
         *     - `tool_call` `{call_id, name, arguments}`: the model called a tool;
         *     - `tool_result` `{call_id, name, ok, result}`: its answer (`result.error` `{code, message}` when it failed; depictions carry `svg`);
         *     - `plan` `{plan_id, title, status, expires_at, cost_usd, expected_runtime_sec, steps}`: a plan card to approve or reject;
         *     - `usage` `{input_tokens, output_tokens, cost_usd, hold_usd}`: what the turn used and was debited;
         *     - `done` `{turn_id, status}` (`completed` or `stopped`) or `error` `{turn_id, status, message}`: the last event, after which the stream closes.
         *     Reconnect with `Last-Event-ID` (or `?after=<id>`) to receive the events after that one, from any instance. A comment line `: keep-alive` is sent every 15 s of silence.
         */
        get: operations["streamAssistantTurn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assistant/sessions/{session_id}/turns/{turn_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A turn: status, tokens, cost */
        get: operations["getAssistantTurn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assistant/sessions/{session_id}/turns/{turn_id}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stop generating: debits the tokens used, releases the rest of the hold (409 when the turn has ended) */
        post: operations["stopAssistantTurn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assistant/plans/{plan_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A plan card: the proposed workflow run, its estimate, status and expiry */
        get: operations["getAssistantPlan"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assistant/plans/{plan_id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start the proposed workflow run: charges your wallet (reserves its estimate). Idempotency-Key required from every caller; 409 when the card expired or was decided */
        post: operations["approveAssistantPlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assistant/plans/{plan_id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reject a plan card (409 when it expired or was decided) */
        post: operations["rejectAssistantPlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assistant/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The language models available and their token prices */
        get: operations["listAssistantModels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        MessageResponse: {
            message: string;
        };
        ValidationIssue: {
            /** @description Machine-readable kind, e.g. missing, string_too_long, too_long, greater_than_equal, enum */
            type: string;
            /** @description Path to the offending input, e.g. ["body","smiles",3] or ["query","limit"] */
            loc: (string | number)[];
            msg: string;
            input: unknown;
        };
        Problem: {
            /** @description /api/v1/problems/<slug>, or /api/v1/problems/http-<status> for generic cases */
            type: string;
            title: string;
            status: number;
            detail: string;
            /** @description The request path */
            instance: string;
            /** @description Quote it to support; also in the X-Request-Id header */
            request_id: string;
            /** @description Retryability hint: retry upstream and timeout with backoff; fix the request for validation; wait or top up for quota */
            retry: "validation" | "auth" | "quota" | "conflict" | "upstream" | "timeout" | "terminal";
            /** @description Present on 422 */
            errors?: components["schemas"]["ValidationIssue"][];
        } & {
            [key: string]: unknown;
        };
        TokenResponse: {
            /** @description Access token (JWT) for Authorization: Bearer */
            access_token: string;
            /** @description Expiry of the access token as a UNIX timestamp */
            expires_at: number;
            /** @description Lifetime of the access token in seconds (900) */
            expires_in: number;
            /** @description Single-use token for POST /auth/refresh (30 days) */
            refresh_token: string;
            /** @default bearer */
            token_type?: string;
        };
        WalletResponse: {
            /** @description Sum of the ledger: credits minus charges */
            balance_usd: number;
            /** @description Held by unfinished jobs */
            reserved_usd: number;
            /** @description balance_usd - reserved_usd */
            available_usd: number;
            /** @enum {string} */
            currency: "USD";
        };
        LedgerItem: {
            /** @description The row's position in the account's ledger (a cursor for `before`) */
            entry_id: string;
            /** @description credit and debit: money in and out; reserve: a hold at submit; release: a hold given back; charge: what the work cost */
            kind: "credit" | "debit" | "reserve" | "release" | "charge";
            /** @description Effect on the balance (a charge or debit is negative) */
            amount_usd: number;
            /** @description Effect on the reserved total (a hold is positive, its release negative) */
            reserved_delta_usd: number;
            /** @description What the row is for: a job, a workflow run, an Assistant turn, or the account itself (credits and debits) */
            subject: "jobs" | "workflow_runs" | "assistant_turns" | "account";
            /** @description The job, workflow run or Assistant turn; null for the account */
            subject_id: string | null;
            /** @description The writer's note, e.g. "job completed" or "workflow run step dock" */
            note: string | null;
            /** Format: date-time */
            created_at: string;
        };
        LedgerResponse: {
            /** @description Newest first */
            items: components["schemas"]["LedgerItem"][];
            /** @description Pass as `before` for the next (older) page; null on the last page */
            next_before: string | null;
        };
        ApiKeyListItem: {
            /**
             * Format: uuid
             * @description Credential row UUID
             */
            id: string;
            /** @description Display name, unique per user, 1 to 64 characters */
            name: string;
            /** @description Non-secret prefix (crk_ + 8 characters) for display and support */
            key_prefix: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description The key stops authenticating after this instant */
            expires_at: string | null;
            /** @description Last successful authentication (may lag up to 60 s) */
            last_used_at: string | null;
            /** @description Always null: revoking deletes the key */
            revoked_at: string | null;
            /** @description Last rotation */
            rotated_at: string | null;
            /** @description Enforced scopes, subset of read, write */
            scopes: ("read" | "write")[];
            /** @description Owner opt-in to send structures to external lookups */
            allow_structure_search: boolean;
            /** @description Most that work started with this key may reserve per calendar month (UTC); null = wallet only */
            spend_ceiling_usd: number | null;
            /** @description USD reserved with this key in the current calendar month (UTC) */
            spend_accrued_usd: number | null;
        };
        ApiKeyCreatedResponse: {
            /**
             * Format: uuid
             * @description Credential row UUID
             */
            id: string;
            /** @description Display name, unique per user, 1 to 64 characters */
            name: string;
            /** @description Non-secret prefix (crk_ + 8 characters) for display and support */
            key_prefix: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description The key stops authenticating after this instant */
            expires_at: string | null;
            /** @description Last successful authentication (may lag up to 60 s) */
            last_used_at: string | null;
            /** @description Always null: revoking deletes the key */
            revoked_at: string | null;
            /** @description Last rotation */
            rotated_at: string | null;
            /** @description Enforced scopes, subset of read, write */
            scopes: ("read" | "write")[];
            /** @description Owner opt-in to send structures to external lookups */
            allow_structure_search: boolean;
            /** @description Most that work started with this key may reserve per calendar month (UTC); null = wallet only */
            spend_ceiling_usd: number | null;
            /** @description USD reserved with this key in the current calendar month (UTC) */
            spend_accrued_usd: number | null;
            /** @description The secret: returned only here, at creation or rotation */
            api_key: string;
        };
        ApiKeyListResponse: {
            /** @description Current number of keys */
            count: number;
            /** @description Owned keys, newest first, no secrets */
            keys: components["schemas"]["ApiKeyListItem"][];
            /** @description Maximum keys allowed for the user's tier */
            limit: number;
        };
        CreateApiKeyRequest: {
            /** @description 1 to 64 printable characters, unique per user */
            name: string;
            /** @description Default both */
            scopes?: ("read" | "write")[] | null;
            /** @description At least one minute in the future */
            expires_at?: string | null;
            spend_ceiling_usd?: number | null;
            /** @default false */
            allow_structure_search?: boolean;
        };
        RenameApiKeyRequest: {
            name?: string | null;
            allow_structure_search?: boolean | null;
        };
        RunEvent: {
            /** @description Opaque; pass as `after` to read the events after this one */
            cursor: string;
            /** @description Position in your feed: increases by one per event */
            event_id: number;
            /**
             * @description `job` or `workflow_run`
             * @enum {string}
             */
            kind: "job" | "workflow_run";
            /** Format: date-time */
            occurred_at: string;
            /**
             * @description The terminal status: jobs completed, error, cancelled; workflow runs completed, failed, cancelled
             * @enum {string}
             */
            status: "completed" | "error" | "cancelled" | "failed";
            /** @description The job (process_id) or workflow run id */
            subject_id: string;
            /** @description The run a job event belongs to, or null */
            workflow_run_id?: string | null;
        };
        EventListResponse: {
            /** @description Oldest first */
            events: components["schemas"]["RunEvent"][];
            /** @description Pass as `after` to continue; present even when `events` is empty. Always a string from this server (null is never sent). */
            next_cursor: string | null;
        };
        ArtifactManifest: {
            /** @description `upload` for uploads of mode file and molecules */
            job_type: string;
            manifest_version: number;
            ports: {
                [key: string]: {
                    /** @description e.g. smiles, sdf, json, svg, csv */
                    format: string;
                    /** @description e.g. molecules, properties, depictions, file */
                    kind: string;
                    record_count: number;
                    records: ({
                        id: string;
                        /** @description Role -> member path inside the archive; `primary` is always present */
                        files: {
                            [key: string]: string;
                        };
                        metrics?: {
                            [key: string]: number;
                        };
                        /** @description Role -> media type of the member (else guessed from its extension) */
                        content_types?: {
                            [key: string]: string;
                        };
                        /** @description Molecule name, for molecule sets */
                        name?: string;
                    } & {
                        [key: string]: unknown;
                    })[];
                    /** @description Molecule sets written by Crucible: a JSON-lines member with every record ({id, smiles, name, molblock}) */
                    bundle?: string;
                } & {
                    [key: string]: unknown;
                };
            };
            /** @description Entries skipped or noted while building the artifact (e.g. unparseable molecules with their line) */
            warnings: unknown[];
        } & {
            [key: string]: unknown;
        };
        ArtifactResponse: {
            /** Format: uuid */
            id: string;
            /** @description An upload: the `name` it was given, else its file name; a job result: its job type and output ports (docs/artifacts.md, "Names") */
            name: string;
            /** @description upload: POST /artifacts; job: written by a job (or a utility request) */
            origin: "upload" | "job";
            /**
             * @description Media type of the stored archive: application/zip
             * @default application/octet-stream
             */
            content_type: string;
            /** @default 0 */
            size_bytes: number;
            created_at: string | null;
            /** @description null: kept until deleted */
            expires_at: string | null;
            job_id: string | null;
            manifest: components["schemas"]["ArtifactManifest"];
        };
        ArtifactListItem: {
            artifact_id: string;
            /** @description The artifact’s name. An upload: the `name` it was given, else its file name; a job result: its job type and output ports (docs/artifacts.md, "Names") */
            name: string;
            /** @description upload: POST /artifacts; job: written by a job (or a utility request) */
            origin: "upload" | "job";
            data_format: string;
            data_kind: string;
            /** @description The port this item lists; `*` for the virtual whole-archive item (include_archive=true) */
            port: string;
            created_at: string | null;
            expires_at: string | null;
            job_id: string | null;
            job_name: string | null;
            job_type: string | null;
            run_id: string | null;
            run_name: string | null;
            step_id: string | null;
            /**
             * @description true for the whole-archive item (data_kind archive, data_format zip, port *)
             * @default false
             */
            is_virtual: boolean;
            /** @default 0 */
            record_count: number;
            /**
             * @description Size of the whole archive the port belongs to
             * @default 0
             */
            size_bytes: number;
        };
        ArtifactListResponse: {
            items: components["schemas"]["ArtifactListItem"][];
            /** @default false */
            has_more: boolean;
            next_offset: number | null;
        };
        ArtifactUsage: {
            artifact_count: number;
            quota_bytes: number;
            tier: number;
            /** @description free, pro, team or enterprise (additive) */
            tier_name: string;
            used_bytes: number;
        };
        MPNNModelInfo: {
            model_id: string;
            task: "regression" | "classification";
            target: string;
            units: string | null;
            /** Format: date-time */
            created_at: string;
            trained_by_process_id: string | null;
            n_train: number;
            n_val: number;
            n_test: number;
            split: {
                [key: string]: unknown;
            };
            /** @description Test-set metrics: rmse, mae, r2 (regression) or roc_auc, accuracy (classification) */
            metrics: {
                [key: string]: number | null;
            };
            hyperparameters: {
                [key: string]: unknown;
            };
            size_bytes: number;
            ensemble_size: number;
        };
        GetMPNNModelsResponse: {
            model_names: string[] | null;
            /** @description Keyed by model name */
            model_info: {
                [key: string]: components["schemas"]["MPNNModelInfo"];
            } | null;
        };
        PublicModelsResponse: {
            /** @description Model cards (docs/models.md): id, name, version, task, target, units, architecture, hyperparameters, training_data, split, test_metrics, baselines, applicability_domain, size_bytes */
            models: {
                [key: string]: unknown;
            }[];
        };
        DepictRequest: {
            /** @description 1 to 20 SMILES; a bad one yields an item with an error, not a failed request */
            smiles: string[];
            /**
             * @description Width of the drawing in pixels (100 to 600, default 300)
             * @default 300
             */
            width?: number;
            /**
             * @description Height of the drawing in pixels (100 to 600, default 220)
             * @default 220
             */
            height?: number;
        };
        DepictReactionsRequest: {
            /** @description 1 to 20 reaction SMILES; a bad one yields an item with an error, not a failed request */
            reactions: string[];
            /**
             * @description Width of the drawing in pixels (200 to 900, default 600)
             * @default 600
             */
            width?: number;
            /**
             * @description Height of the drawing in pixels (100 to 600, default 220)
             * @default 220
             */
            height?: number;
        };
        Depiction: {
            /** @description A standalone SVG document of the requested width and height (width, height and viewBox set), safe to inline in a web page: no scripts, event handlers or external references. Null when error is set. */
            svg: string | null;
            /** @description unparseable (RDKit cannot read it as SMILES), too_large (over 2000 characters or over 200 heavy atoms), render_failed (RDKit could not draw it in time) */
            error: ("unparseable" | "too_large" | "render_failed") | null;
            /** @description Why, when error is set: RDKit's reason, e.g. "unclosed ring", "extra open parentheses at position 3", "250 heavy atoms; at most 200" */
            detail: string | null;
        };
        DepictResponse: {
            /** @description One entry per input, in input order */
            items: components["schemas"]["Depiction"][];
        };
        /** @description Outcome of a drug-likeness rule: pass flag and the violated criteria */
        RuleCheck: {
            /** @description Whether the molecule passes the rule */
            pass: boolean;
            /** @description Names of the violated criteria, e.g. 'mw>500', 'clogp>5', 'hbd>5', 'hba>10' (Lipinski) or 'rotatable_bonds>10', 'tpsa>140' (Veber); empty when none */
            violations: string[];
        };
        /** @description A common electrospray ion of the mass-spectrometry species and its monoisotopic m/z */
        MsAdduct: {
            /** @description Ion notation: '[M+H]+', '[M+Na]+', '[M+K]+', '[M+NH4]+', '[M-H]-', '[M+Cl]-', '[M+HCOO]-' for a neutral species; '[M]+', '[M]2+', '[M]-', ... for a species that carries a net charge */
            adduct: string;
            /** @description Charge of the ion (signed), e.g. 1 or -1 */
            charge: number;
            /** @description m/z of the monoisotopic ion: (exact mass of the ion, electron mass included) / |charge|, built on the isotopes monoisotopic_mass uses (the most abundant natural isotope of each element) */
            mz: number;
            /** @description Molecular formula of the ion in RDKit's notation, e.g. 'C9H9O4+' */
            formula: string;
        };
        /** @description One peak of the natural isotope pattern (IUPAC abundances) of the mass-spectrometry species */
        IsotopePeak: {
            /** @description Nominal mass shift from the monoisotopic peak: 'M', 'M+1', 'M+2', ... ('M-1', 'M-2' for elements with a natural isotope lighter than the monoisotopic one: 10B, 50V, 54Fe) */
            label: string;
            /** @description Abundance-weighted mean exact mass (Da) of the isotopologues at this nominal shift (electron mass included for ions, as in RDKit ExactMolWt). The M peak is the species' monoisotopic mass (monoisotopic_mass for a one-fragment input), give or take a few micro-daltons where an element with a lighter natural isotope (B, V, Fe...) adds isotopologues of the same nominal mass */
            mass: number;
            /** @description Intensity relative to the most intense peak of the pattern (= 100); peaks below 0.1 are left out */
            relative_abundance: number;
        };
        /** @description Mass-spectrometry hints for the species: the whole input when it is one fragment, otherwise its largest fragment (most heavy atoms). Null when the input has dummy atoms (*) */
        MassSpecHints: {
            /** @description Common ESI ions of the species */
            adducts: components["schemas"]["MsAdduct"][];
            /** @description Isotope pattern of the species, in mass order */
            isotopes: components["schemas"]["IsotopePeak"][];
        };
        /** @description Molecular properties computed with RDKit from one SMILES */
        MolecularProperties: {
            /** @description Molecular formula as RDKit CalcMolFormula writes it (C, H, then alphabetical; net charge appended, e.g. 'C2H3O2-') */
            formula: string;
            /** @description Average molecular weight (RDKit Descriptors.MolWt), g/mol */
            mw: number;
            /** @description Exact monoisotopic mass (RDKit Descriptors.ExactMolWt), Da; electron mass accounted for ions */
            monoisotopic_mass: number;
            /** @description Wildman-Crippen logP (RDKit Crippen.MolLogP) */
            clogp: number;
            /** @description Topological polar surface area, Ertl 2000, N and O contributions only (RDKit CalcTPSA default), Å² */
            tpsa: number;
            /** @description Hydrogen-bond acceptors (RDKit rdMolDescriptors.CalcNumHBA = Lipinski.NumHAcceptors) */
            hba: number;
            /** @description Hydrogen-bond donors (RDKit rdMolDescriptors.CalcNumHBD = Lipinski.NumHDonors) */
            hbd: number;
            /** @description Rotatable bonds (RDKit CalcNumRotatableBonds, default = Strict definition) */
            rotatable_bonds: number;
            /** @description Aromatic rings of the SSSR (RDKit CalcNumAromaticRings) */
            aromatic_rings: number;
            /** @description Atoms with atomic number > 1 (RDKit GetNumHeavyAtoms) */
            heavy_atoms: number;
            /** @description Net formal charge (sum over atoms) */
            formal_charge: number;
            /** @description Quantitative estimate of drug-likeness (Bickerton 2012) with RDKit QED.qed's default (mean) weights; null when it cannot be computed */
            qed: number | null;
            lipinski: components["schemas"]["RuleCheck"];
            veber: components["schemas"]["RuleCheck"];
            /** @description Structural alerts, in RDKit catalog order */
            alerts: {
                /** @description Matched PAINS A/B/C filters, RDKit FilterCatalog entry descriptions, e.g. 'catechol_A(92)' */
                pains: string[];
                /** @description Matched Brenk filters, RDKit FilterCatalog entry descriptions, e.g. 'aldehyde' */
                brenk: string[];
            };
            /** @description Mass-spectrometry hints for the species: the whole input when it is one fragment, otherwise its largest fragment (most heavy atoms). Null when the input has dummy atoms (*) */
            ms: components["schemas"]["MassSpecHints"] | null;
        };
        DescribeRequest: {
            /** @description 1 to 20 SMILES; a bad one yields an item with an error, not a failed request */
            smiles: string[];
        };
        Description: {
            /** @description Null when error is set */
            properties: components["schemas"]["MolecularProperties"] | null;
            /** @description unparseable (RDKit cannot read it as SMILES), too_large (over 2000 characters or over 200 heavy atoms), describe_failed (RDKit could not compute it in time) */
            error: ("unparseable" | "too_large" | "describe_failed") | null;
            /** @description Why, when error is set: RDKit's reason, e.g. "unclosed ring", "explicit valence for atom # 3 C, 5, is greater than permitted", "250 heavy atoms; at most 200" */
            detail: string | null;
            /** @description RDKit's canonical SMILES (null when error is set) */
            canonical_smiles: string | null;
            /** @description Standard InChI (null when error is set or RDKit cannot make one, e.g. with dummy atoms) */
            inchi: string | null;
            /** @description Standard InChIKey (null with inchi) */
            inchikey: string | null;
        };
        DescribeResponse: {
            /** @description One entry per input, in input order */
            items: components["schemas"]["Description"][];
        };
        /** @description A job type, its payload and a resource */
        JobEstimateRequest: components["schemas"]["PropertiesJobEstimateRequest"] | components["schemas"]["DepictJobEstimateRequest"] | components["schemas"]["SimilaritySearchJobEstimateRequest"] | components["schemas"]["SubstructureSearchJobEstimateRequest"] | components["schemas"]["ClusterJobEstimateRequest"] | components["schemas"]["FilterJobEstimateRequest"] | components["schemas"]["ProfileTableJobEstimateRequest"] | components["schemas"]["WaitJobEstimateRequest"] | components["schemas"]["MpnnTrainJobEstimateRequest"] | components["schemas"]["MpnnPredictJobEstimateRequest"] | components["schemas"]["OptimizeJobEstimateRequest"] | components["schemas"]["SinglepointJobEstimateRequest"] | components["schemas"]["DockingJobEstimateRequest"] | components["schemas"]["PoseCheckJobEstimateRequest"] | components["schemas"]["PocketsJobEstimateRequest"] | components["schemas"]["ConformersJobEstimateRequest"] | components["schemas"]["FrequenciesJobEstimateRequest"] | components["schemas"]["ScanJobEstimateRequest"] | components["schemas"]["PropertiesQmJobEstimateRequest"] | components["schemas"]["RerankJobEstimateRequest"] | components["schemas"]["PkaJobEstimateRequest"] | components["schemas"]["TautomersJobEstimateRequest"] | components["schemas"]["BdeJobEstimateRequest"] | components["schemas"]["ReactivityJobEstimateRequest"] | components["schemas"]["ReceptorPrepareJobEstimateRequest"];
        JobEstimateResponse: {
            /** @description USD reserved at submit */
            cost: number;
            expected_runtime_sec: number;
            /** @enum {string} */
            job_type: "properties" | "depict" | "similarity_search" | "substructure_search" | "cluster" | "filter" | "profile_table" | "wait" | "mpnn_train" | "mpnn_predict" | "optimize" | "singlepoint" | "docking" | "pose_check" | "pockets" | "conformers" | "frequencies" | "scan" | "properties_qm" | "rerank" | "pka" | "tautomers" | "bde" | "reactivity" | "receptor_prepare";
            /** @description USD per second of runtime */
            rate_per_sec: number;
            /** @enum {string} */
            resource: "default" | "cpu-4";
            /** @description The account's tier number */
            tier: number;
            /** @description free, pro, team or enterprise (additive) */
            tier_name: string;
            /** @default {} */
            assumptions: {
                [key: string]: unknown;
            };
        };
        /** @description A job: its name, type, payload and resource */
        JobSubmitRequest: components["schemas"]["PropertiesJobRequest"] | components["schemas"]["DepictJobRequest"] | components["schemas"]["SimilaritySearchJobRequest"] | components["schemas"]["SubstructureSearchJobRequest"] | components["schemas"]["ClusterJobRequest"] | components["schemas"]["FilterJobRequest"] | components["schemas"]["ProfileTableJobRequest"] | components["schemas"]["WaitJobRequest"] | components["schemas"]["MpnnTrainJobRequest"] | components["schemas"]["MpnnPredictJobRequest"] | components["schemas"]["OptimizeJobRequest"] | components["schemas"]["SinglepointJobRequest"] | components["schemas"]["DockingJobRequest"] | components["schemas"]["PoseCheckJobRequest"] | components["schemas"]["PocketsJobRequest"] | components["schemas"]["ConformersJobRequest"] | components["schemas"]["FrequenciesJobRequest"] | components["schemas"]["ScanJobRequest"] | components["schemas"]["PropertiesQmJobRequest"] | components["schemas"]["RerankJobRequest"] | components["schemas"]["PkaJobRequest"] | components["schemas"]["TautomersJobRequest"] | components["schemas"]["BdeJobRequest"] | components["schemas"]["ReactivityJobRequest"] | components["schemas"]["ReceptorPrepareJobRequest"];
        JobSubmitMultipleRequest: {
            jobs: components["schemas"]["JobSubmitRequest"][];
        };
        JobListItem: {
            process_id: string;
            job_name: string;
            /** @enum {string} */
            job_type: "properties" | "depict" | "similarity_search" | "substructure_search" | "cluster" | "filter" | "profile_table" | "wait" | "mpnn_train" | "mpnn_predict" | "optimize" | "singlepoint" | "docking" | "pose_check" | "pockets" | "conformers" | "frequencies" | "scan" | "properties_qm" | "rerank" | "pka" | "tautomers" | "bde" | "reactivity" | "receptor_prepare";
            /** @enum {string} */
            resource: "default" | "cpu-4";
            /**
             * @description queued -> dispatched (a worker claimed it) -> running -> completed | error; or cancelled
             * @enum {string}
             */
            status: "queued" | "dispatched" | "running" | "completed" | "error" | "cancelled";
            /** @default  */
            message: string;
            /** @default 0 */
            runtime_seconds: number;
            /** @description USD charged; null until the job ends */
            charged_amount: number | null;
            /** @description USD reserved at submit */
            expected_billing_cost: number | null;
            created_at: string | null;
            started_at: string | null;
            finished_at: string | null;
            result_artifact_id: string | null;
        };
        ListJobsResponse: {
            /** @default [] */
            items: components["schemas"]["JobListItem"][];
            /** @description Distinct names of all matching jobs (first 1,000) */
            job_names: string[];
            /** @description Process ids of all matching jobs (first 1,000) */
            job_pids: string[];
            /** @default 100 */
            limit: number;
            /** @default 0 */
            offset: number;
            /** @default 0 */
            total: number;
        };
        JobStatusResponse: {
            process_id: string;
            /**
             * @description queued -> dispatched (a worker claimed it) -> running -> completed | error; or cancelled
             * @enum {string}
             */
            status: "queued" | "dispatched" | "running" | "completed" | "error" | "cancelled";
            message: string | null;
            progress: ({
                fraction: number;
            } & {
                [key: string]: unknown;
            }) | null;
            result_artifact_id: string | null;
        };
        JobInfoResponse: {
            process_id: string;
            info: {
                [key: string]: unknown;
            };
        };
        /**
         * properties payload
         * @description All MolecularProperties (as POST /describe) of each molecule of a SMILES list or an uploaded molecule set
         */
        PropertiesPayload: {
            /** @description The molecules to describe, as SMILES (1 to 100,000, each at most 2000 characters; the 1 MiB JSON body cap limits inline lists in practice: larger sets come by input_artifact_id). Exactly one of smiles and input_artifact_id */
            smiles?: string[];
            /** @description The molecules to describe, as an uploaded molecule set (POST /artifacts with mode=molecules: .smi, .csv or .sdf), at most 100,000 molecules. Exactly one of smiles and input_artifact_id */
            input_artifact_id?: string;
            /** @description The port of input_artifact_id holding the molecules (needed only when the artifact has several molecule sets) */
            port?: string;
        };
        /**
         * depict payload
         * @description An SVG drawing (as POST /depict) of each molecule of a SMILES list or an uploaded molecule set
         */
        DepictPayload: {
            /** @description The molecules to draw, as SMILES (1 to 100,000, each at most 2000 characters; the 1 MiB JSON body cap limits inline lists in practice: larger sets come by input_artifact_id). Exactly one of smiles and input_artifact_id */
            smiles?: string[];
            /** @description The molecules to draw, as an uploaded molecule set (POST /artifacts with mode=molecules: .smi, .csv or .sdf), at most 100,000 molecules. Exactly one of smiles and input_artifact_id */
            input_artifact_id?: string;
            /** @description The port of input_artifact_id holding the molecules (needed only when the artifact has several molecule sets) */
            port?: string;
            /**
             * @description Drawing width in pixels (as /depict)
             * @default 300
             */
            width?: number;
            /**
             * @description Drawing height in pixels (as /depict)
             * @default 220
             */
            height?: number;
        };
        /**
         * similarity_search payload
         * @description Molecules of a library most similar to a query SMILES (Tanimoto on Morgan fingerprints, radius 2, 2048 bits), above a threshold, best top_k
         */
        SimilaritySearchPayload: {
            /** @description The query molecule, as SMILES */
            query: string;
            /** @description The library to search, as SMILES (1 to 100,000, each at most 2000 characters; the 1 MiB JSON body cap limits inline lists in practice: larger sets come by input_artifact_id). Exactly one of smiles and input_artifact_id */
            smiles?: string[];
            /** @description The library to search, as an uploaded molecule set (POST /artifacts with mode=molecules: .smi, .csv or .sdf), at most 100,000 molecules. Exactly one of smiles and input_artifact_id */
            input_artifact_id?: string;
            /** @description The port of input_artifact_id holding the molecules (needed only when the artifact has several molecule sets) */
            port?: string;
            /**
             * @description Smallest Tanimoto similarity of a hit (0..1, default 0.7)
             * @default 0.7
             */
            threshold?: number;
            /**
             * @description Most hits returned, best first (1..10000, default 100)
             * @default 100
             */
            top_k?: number;
        };
        /**
         * substructure_search payload
         * @description Molecules of a library that contain a substructure given as SMARTS or SMILES, with the atoms of the first match
         */
        SubstructureSearchPayload: {
            /** @description The substructure, as SMARTS or SMILES (see query_format) */
            query: string;
            /**
             * @description How the query is read: `auto` (default) SMARTS first, SMILES when it is not valid SMARTS; `smarts`; `smiles` (aromatized as a molecule: use it for Kekulé SMILES)
             * @default auto
             */
            query_format?: "auto" | "smarts" | "smiles";
            /** @description The library to search, as SMILES (1 to 100,000, each at most 2000 characters; the 1 MiB JSON body cap limits inline lists in practice: larger sets come by input_artifact_id). Exactly one of smiles and input_artifact_id */
            smiles?: string[];
            /** @description The library to search, as an uploaded molecule set (POST /artifacts with mode=molecules: .smi, .csv or .sdf), at most 100,000 molecules. Exactly one of smiles and input_artifact_id */
            input_artifact_id?: string;
            /** @description The port of input_artifact_id holding the molecules (needed only when the artifact has several molecule sets) */
            port?: string;
            /**
             * @description Honour tetrahedral stereo in matching (RDKit useChirality, default false)
             * @default false
             */
            use_chirality?: boolean;
        };
        /**
         * cluster payload
         * @description Butina clustering of a library on Morgan fingerprints (radius 2, 2048 bits) with a Tanimoto distance cutoff (default 0.35)
         */
        ClusterPayload: {
            /** @description The molecules to cluster, as SMILES (1 to 100,000, each at most 2000 characters; the 1 MiB JSON body cap limits inline lists in practice: larger sets come by input_artifact_id). Exactly one of smiles and input_artifact_id */
            smiles?: string[];
            /** @description The molecules to cluster, as an uploaded molecule set (POST /artifacts with mode=molecules: .smi, .csv or .sdf), at most 100,000 molecules. Exactly one of smiles and input_artifact_id */
            input_artifact_id?: string;
            /** @description The port of input_artifact_id holding the molecules (needed only when the artifact has several molecule sets) */
            port?: string;
            /**
             * @description Tanimoto distance threshold (0..1, default 0.35, i.e. similarity 0.65): two molecules are neighbours when 1 - similarity <= cutoff
             * @default 0.35
             */
            cutoff?: number;
        };
        /**
         * filter payload
         * @description Keep the molecules whose properties satisfy an expression, e.g. "mw <= 500 and clogp < 5 and not pains"
         */
        FilterPayload: {
            /** @description The molecules to filter, as SMILES (1 to 100,000, each at most 2000 characters; the 1 MiB JSON body cap limits inline lists in practice: larger sets come by input_artifact_id). Exactly one of smiles and input_artifact_id */
            smiles?: string[];
            /** @description The molecules to filter, as an uploaded molecule set (POST /artifacts with mode=molecules: .smi, .csv or .sdf), at most 100,000 molecules. Exactly one of smiles and input_artifact_id */
            input_artifact_id?: string;
            /** @description The port of input_artifact_id holding the molecules (needed only when the artifact has several molecule sets) */
            port?: string;
            /** @description Kept when true, e.g. "mw <= 500 and clogp < 5 and not pains". Names: mw, monoisotopic_mass, clogp, tpsa, hba, hbd, rotatable_bonds, aromatic_rings, heavy_atoms, formal_charge, qed, lipinski_violations, veber_violations, pains_alerts, brenk_alerts, pains, brenk, lipinski, veber; pains, brenk: any alert; lipinski, veber: the rule passes. Operators: < <= > >= == != + - * / and or not, parentheses */
            expression: string;
        };
        /**
         * profile_table payload
         * @description One table row per molecule from the results of properties, pka, tautomers, bde and reactivity jobs on the same molecules (a workflow step: the profile template's table)
         */
        ProfileTablePayload: {
            /**
             * Format: uuid
             * @description The result artifact of a properties job on the molecules (a workflow step binds it to that step's result)
             */
            properties_artifact_id?: string;
            /**
             * Format: uuid
             * @description The result artifact of a pka job on the molecules (a workflow step binds it to that step's result)
             */
            pka_artifact_id?: string;
            /**
             * Format: uuid
             * @description The result artifact of a tautomers job on the molecules (a workflow step binds it to that step's result)
             */
            tautomers_artifact_id?: string;
            /**
             * Format: uuid
             * @description The result artifact of a bde job on the molecules (a workflow step binds it to that step's result)
             */
            bde_artifact_id?: string;
            /**
             * Format: uuid
             * @description The result artifact of a reactivity job on the molecules (a workflow step binds it to that step's result)
             */
            reactivity_artifact_id?: string;
        };
        /**
         * wait payload
         * @description Sleeps for `seconds` (1..3600): a diagnostic job for probes and integration tests
         */
        WaitPayload: {
            /** @description How long to sleep */
            seconds: number;
        };
        /**
         * mpnn_train payload
         * @description Train a directed message-passing neural network (D-MPNN, as chemprop) on your measurements and register it under model_name
         */
        MpnnTrainPayload: {
            /** @description Your name for the model (1..64 of A-Z a-z 0-9 . _ -) */
            model_name: string;
            task: "regression" | "classification";
            /** @description Inline training rows (up to 5000); or give input_artifact_id */
            rows?: {
                smiles: string;
                target: number | string;
            }[];
            /** @description An uploaded CSV with a SMILES column and the target column */
            input_artifact_id?: string;
            /** @description The CSV column holding the target (required with input_artifact_id) */
            target_column?: string;
            /**
             * @description The CSV column holding SMILES (default smiles, case-insensitive)
             * @default smiles
             */
            smiles_column?: string;
            /** @description What the target is (default: target_column, or "target") */
            target_name?: string;
            units?: string;
            /** @default random */
            split?: "random" | "scaffold";
            /** @default 0 */
            split_seed?: number;
            /** @default 0.1 */
            val_fraction?: number;
            /** @default 0.1 */
            test_fraction?: number;
            /**
             * @description Replace a model of the same name
             * @default false
             */
            overwrite?: boolean;
            hyperparameters?: {
                /**
                 * @description Message-passing steps (2..6, default 3)
                 * @default 3
                 */
                depth?: number;
                /** @default 300 */
                hidden_size?: number;
                /** @default 2 */
                ffn_layers?: number;
                /** @default 0 */
                dropout?: number;
                /** @default 50 */
                epochs?: number;
                /** @default 50 */
                batch_size?: number;
                /**
                 * @description Peak learning rate of the warm-up/decay schedule
                 * @default 0.001
                 */
                learning_rate?: number;
                /** @default 1 */
                ensemble_size?: number;
                /** @description Early stopping: end a member after this many epochs without a better validation metric (default: run every epoch) */
                patience?: number;
                /**
                 * @description Molecule features appended before the feed-forward network: "none" (chemprop's default) or "rdkit_2d" (normalised RDKit 2D descriptors, computed again for every prediction; docs/models.md, "Molecule features")
                 * @default none
                 */
                molecule_features?: "none" | "rdkit_2d";
            };
        };
        /**
         * mpnn_predict payload
         * @description Predict a property with a public model or one of your MPNN models, for SMILES or an uploaded molecule set
         */
        MpnnPredictPayload: {
            /** @description public/<id> or user/<name> */
            model: string;
            /** @description SMILES to predict; or give input_artifact_id */
            smiles?: string[];
            /** @description An uploaded molecule set instead of smiles */
            input_artifact_id?: string;
            port?: string;
            /**
             * @description Report the ensemble standard deviation
             * @default true
             */
            uncertainty?: boolean;
        };
        /**
         * optimize payload
         * @description Geometry optimisation with GFN2-xTB, GFN1-xTB, GFN-FF (xtb), PM7, PM6 (MOPAC) or DFT and HF with a basis set (Psi4, NWChem), in the gas phase or an implicit solvent
         */
        OptimizePayload: {
            /** @description The structures (1 to 1000): each a SMILES (3D coordinates built, hydrogens added) or a V2000/V3000 molblock (3D coordinates kept; hydrogens added when missing). Exactly one of molecules and input_artifact_id */
            molecules?: string[];
            /** @description An uploaded molecule set or an earlier job's structures (e.g. a conformers or optimize result, with port "structures"), at most 1000. Exactly one of molecules and input_artifact_id */
            input_artifact_id?: string;
            /** @description The port of input_artifact_id holding the structures */
            port?: string;
            /**
             * @description gfn2 (GFN2-xTB), gfn1 (GFN1-xTB), gfnff (GFN-FF force field): xtb; pm7, pm6: MOPAC; hf, pbe, pbe0, b3lyp, wb97x-d: Psi4 (in a solvent NWChem, except wb97x-d); b3lyp-d3bj, pbe0-d3bj: NWChem (D3 with Becke-Johnson damping). DFT and HF need basis
             * @default gfn2
             */
            method?: "gfn2" | "gfn1" | "gfnff" | "pm7" | "pm6" | "hf" | "pbe" | "pbe0" | "b3lyp" | "wb97x-d" | "b3lyp-d3bj" | "pbe0-d3bj";
            /**
             * @description Implicit solvent: ALPB in xtb, COSMO (with the solvent's dielectric constant) in MOPAC; null: gas phase
             * @default null
             */
            solvent?: ("acetone" | "acetonitrile" | "aniline" | "benzaldehyde" | "benzene" | "ch2cl2" | "chcl3" | "cs2" | "dioxane" | "dmf" | "dmso" | "ether" | "ethylacetate" | "furane" | "hexadecane" | "hexane" | "methanol" | "nitromethane" | "octanol" | "woctanol" | "phenol" | "toluene" | "thf" | "water") | null;
            /** @description Total charge (default: each molecule's formal charge) */
            charge?: number;
            /** @description Spin multiplicity 2S+1 (default 1, or 2 for an odd number of electrons) */
            multiplicity?: number;
            /** @description Geometry optimisation cycles at most (engine default when absent) */
            max_iterations?: number;
            /** @description The basis set of a DFT or HF method (required with one): def2-svp, def2-tzvp, 6-31g*, cc-pvdz */
            basis?: "def2-svp" | "def2-tzvp" | "6-31g*" | "cc-pvdz";
            /** @description The DFT engine (default: Psi4 where it can run the method, else NWChem; NWChem in a solvent). A method the engine cannot run is a 422 naming the ones that can */
            engine?: "psi4" | "nwchem";
            /** @description SCF iterations at most (DFT and HF; 100 when absent) */
            scf_max_iterations?: number;
        };
        /**
         * singlepoint payload
         * @description Energy, HOMO-LUMO gap, dipole and partial charges at the given geometry (xtb, MOPAC, or DFT and HF with Psi4 or NWChem)
         */
        SinglepointPayload: {
            /** @description The structures (1 to 1000): each a SMILES (3D coordinates built, hydrogens added) or a V2000/V3000 molblock (3D coordinates kept; hydrogens added when missing). Exactly one of molecules and input_artifact_id */
            molecules?: string[];
            /** @description An uploaded molecule set or an earlier job's structures (e.g. a conformers or optimize result, with port "structures"), at most 1000. Exactly one of molecules and input_artifact_id */
            input_artifact_id?: string;
            /** @description The port of input_artifact_id holding the structures */
            port?: string;
            /**
             * @description gfn2 (GFN2-xTB), gfn1 (GFN1-xTB), gfnff (GFN-FF force field): xtb; pm7, pm6: MOPAC; hf, pbe, pbe0, b3lyp, wb97x-d: Psi4 (in a solvent NWChem, except wb97x-d); b3lyp-d3bj, pbe0-d3bj: NWChem (D3 with Becke-Johnson damping). DFT and HF need basis
             * @default gfn2
             */
            method?: "gfn2" | "gfn1" | "gfnff" | "pm7" | "pm6" | "hf" | "pbe" | "pbe0" | "b3lyp" | "wb97x-d" | "b3lyp-d3bj" | "pbe0-d3bj";
            /**
             * @description Implicit solvent: ALPB in xtb, COSMO (with the solvent's dielectric constant) in MOPAC; null: gas phase
             * @default null
             */
            solvent?: ("acetone" | "acetonitrile" | "aniline" | "benzaldehyde" | "benzene" | "ch2cl2" | "chcl3" | "cs2" | "dioxane" | "dmf" | "dmso" | "ether" | "ethylacetate" | "furane" | "hexadecane" | "hexane" | "methanol" | "nitromethane" | "octanol" | "woctanol" | "phenol" | "toluene" | "thf" | "water") | null;
            /** @description Total charge (default: each molecule's formal charge) */
            charge?: number;
            /** @description Spin multiplicity 2S+1 (default 1, or 2 for an odd number of electrons) */
            multiplicity?: number;
            /** @description Geometry optimisation cycles at most (engine default when absent) */
            max_iterations?: number;
            /** @description The basis set of a DFT or HF method (required with one): def2-svp, def2-tzvp, 6-31g*, cc-pvdz */
            basis?: "def2-svp" | "def2-tzvp" | "6-31g*" | "cc-pvdz";
            /** @description The DFT engine (default: Psi4 where it can run the method, else NWChem; NWChem in a solvent). A method the engine cannot run is a 422 naming the ones that can */
            engine?: "psi4" | "nwchem";
            /** @description SCF iterations at most (DFT and HF; 100 when absent) */
            scf_max_iterations?: number;
        };
        /**
         * docking payload
         * @description AutoDock Vina docking of ligands into a receptor (an uploaded PDB file or an RCSB PDB entry) within a box
         */
        DockingPayload: {
            /** @description The ligands (1 to 1000): each a SMILES (3D coordinates built) or a molblock (3D coordinates kept). Exactly one of molecules and input_artifact_id */
            molecules?: string[];
            /** @description An uploaded molecule set or an earlier job's structures (e.g. a conformers or optimize result, with port "structures"), at most 1000. Exactly one of molecules and input_artifact_id */
            input_artifact_id?: string;
            /** @description The port of input_artifact_id holding the structures */
            port?: string;
            /** @description An uploaded PDB file of the receptor (at most 50 MB). Exactly one of receptor_artifact_id and pdb_id */
            receptor_artifact_id?: string;
            /** @description An RCSB PDB entry (e.g. 1IEP), fetched in the PDB format */
            pdb_id?: string;
            /**
             * @description Residue names of hetero groups to keep in the receptor (e.g. HEM, ZN; HOH keeps the waters); every other hetero group is removed
             * @default []
             */
            keep_hetero?: string[];
            box?: {
                /** @description Centre of the search box, x y z (A) */
                center: number[];
                /** @description Edge lengths of the search box, x y z (A), each at most 126 */
                size: number[];
            };
            /** @description An uploaded ligand pose (SDF, MOL, MOL2 or PDB): the box is its extent plus padding on every side. Exactly one of box and this */
            reference_ligand_artifact_id?: string;
            /** @description A hetero group of the receptor by residue name (e.g. STI, 1IEP's imatinib), or "ligand" for its ligand (its one hetero group that is not water, an ion, an additive or kept; a 422 lists the groups when there are several): the box is its first group's extent plus padding on every side; the group is removed unless kept. "auto": the box of the receptor's best pocket (the pockets job's first, docs/structure.md "Pockets"; the result's box says which). Exactly one of box, reference_ligand_artifact_id and this */
            box_site?: string;
            /** @description Port `best`: the best pose of each of this many best-scoring ligands, best first (for a workflow's next step) */
            keep_best?: number;
            /** @description A of space around the reference ligand or site on every side (default 4) */
            padding?: number;
            /**
             * @description Vina's exhaustiveness (independent Monte Carlo runs)
             * @default 8
             */
            exhaustiveness?: number;
            /**
             * @description Vina 1.2's scoring function: vina, or vinardo (Quiroga and Villarreal 2016: a simpler steric term and no hydrogen-bond cap; docs/structure.md, "Rescoring")
             * @default vina
             */
            scoring?: "vina" | "vinardo";
            /**
             * @description Poses kept per ligand at most (within energy_range of the best)
             * @default 9
             */
            num_modes?: number;
            /**
             * @description Vina's energy range: poses kept only within this many kcal/mol of the best (Vina's default 3)
             * @default 3
             */
            energy_range?: number;
            /** @description Vina's random seed (default 42): the same seed and inputs give the same poses */
            seed?: number;
            /**
             * @description pH at which the ligands, and a receptor given without hydrogens, are protonated (Open Babel's model); null: hydrogens by valence only. A receptor with its hydrogens keeps them
             * @default 7.4
             */
            ph?: number | null;
            /**
             * @description Check every pose PoseBusters-style, compute its strain (GFN-FF) and profile its interactions with PLIP (as pose_check does; docs/structure.md), with a 2D diagram per pose in the `interactions` port. false: Vina's poses alone
             * @default true
             */
            pose_checks?: boolean;
            /**
             * @description Each ligand's poses: by Vina's score (best first), by the checks (the poses that pass every check first, then fewer failed, then by score) or by strain (lowest first, then by score; poses without a strain last). The best port and table take each ligand's first pose
             * @default score
             */
            pose_order?: "score" | "checks" | "strain";
            /**
             * @description A receptor given without hydrogens: propka prepares it as receptor_prepare does (PDBFixer's missing atoms, PDB2PQR with PROPKA's protonation states at ph); openbabel adds Open Babel's hydrogens at ph. A receptor with its hydrogens keeps them either way
             * @default propka
             */
            receptor_protonation?: "propka" | "openbabel";
        };
        /**
         * pose_check payload
         * @description PoseBusters-style checks of ligand poses in a receptor and their PLIP interactions, with a 2D interaction diagram per pose
         */
        PoseCheckPayload: {
            /** @description The poses (1 to 1000): each a molblock with 3D coordinates in the receptor's frame (kept as given). Exactly one of molecules and input_artifact_id (an uploaded SDF, or a docking result with port "poses") */
            molecules?: string[];
            /** @description An uploaded molecule set or an earlier job's structures (e.g. a conformers or optimize result, with port "structures"), at most 1000. Exactly one of molecules and input_artifact_id */
            input_artifact_id?: string;
            /** @description The port of input_artifact_id holding the structures */
            port?: string;
            /** @description An uploaded PDB file of the receptor (at most 50 MB). Exactly one of receptor_artifact_id and pdb_id */
            receptor_artifact_id?: string;
            /** @description An RCSB PDB entry (e.g. 1IEP), fetched in the PDB format; its waters and hetero groups are removed */
            pdb_id?: string;
            /** @description The stereochemistry each pose must keep, as SMILES: one for every pose, or one per pose in input order. Without it a pose is compared with the atom parities its molblock declares */
            reference_smiles?: string[];
            /**
             * @description Compute each pose's strain_kcal_mol (GFN-FF: the pose relaxed with its heavy atoms restrained, minus the lowest conformer of the same molecule, ALPB water; about 1 s for a small ligand, 15 s for imatinib). false skips it (strain_kcal_mol null)
             * @default true
             */
            strain?: boolean;
        };
        /**
         * pockets payload
         * @description Pockets of a receptor (an uploaded PDB file or an RCSB PDB entry) with no ligand given: a LIGSITE grid search, best first, each with a Vina box
         */
        PocketsPayload: {
            /** @description An uploaded PDB file of the receptor (at most 50 MB). Exactly one of receptor_artifact_id and pdb_id */
            receptor_artifact_id?: string;
            /** @description An RCSB PDB entry (e.g. 1IEP), fetched in the PDB format */
            pdb_id?: string;
            /**
             * @description The best pockets reported (1 to 20)
             * @default 5
             */
            max_pockets?: number;
        };
        /**
         * conformers payload
         * @description 3D conformer ensemble of each structure: Open Babel's candidates optimised with GFN-FF (and GFN2-xTB), pruned by energy window and RMSD, Boltzmann-weighted
         */
        ConformersPayload: {
            /** @description The structures (1 to 1000): each a SMILES (3D coordinates built, hydrogens added) or a V2000/V3000 molblock (3D coordinates kept; hydrogens added when missing). Exactly one of molecules and input_artifact_id */
            molecules?: string[];
            /** @description An uploaded molecule set or an earlier job's structures (e.g. a conformers or optimize result, with port "structures"), at most 1000. Exactly one of molecules and input_artifact_id */
            input_artifact_id?: string;
            /** @description The port of input_artifact_id holding the structures */
            port?: string;
            /**
             * @description gfnff: candidates optimised and ranked with GFN-FF; gfn2: pre-optimised with GFN-FF, then optimised and ranked with GFN2-xTB (xtb)
             * @default gfn2
             */
            method?: "gfnff" | "gfn2";
            /**
             * @description xtb's ALPB implicit solvent; null: gas phase
             * @default null
             */
            solvent?: ("acetone" | "acetonitrile" | "aniline" | "benzaldehyde" | "benzene" | "ch2cl2" | "chcl3" | "cs2" | "dioxane" | "dmf" | "dmso" | "ether" | "ethylacetate" | "furane" | "hexadecane" | "hexane" | "methanol" | "nitromethane" | "octanol" | "woctanol" | "phenol" | "toluene" | "thf" | "water") | null;
            /** @description Total charge (default: each molecule's formal charge) */
            charge?: number;
            /** @description Spin multiplicity 2S+1 (default 1, or 2 for an odd number of electrons) */
            multiplicity?: number;
            /**
             * @description Conformers kept per structure at most (the lowest)
             * @default 50
             */
            max_conformers?: number;
            /**
             * @description Conformers more than this above the lowest (kcal/mol) are dropped
             * @default 6
             */
            energy_window_kcal?: number;
            /**
             * @description Å: a conformer within this heavy-atom RMSD (after superposition, symmetry-equivalent atoms matched) of a lower one is a duplicate
             * @default 0.5
             */
            rmsd_threshold?: number;
            /**
             * @description Temperature of the Boltzmann weights (K)
             * @default 298.15
             */
            temperature_k?: number;
        };
        /**
         * frequencies payload
         * @description Harmonic frequencies, IR intensities and thermochemistry (ZPVE, H, S, G) of the optimised structure, with xtb or MOPAC
         */
        FrequenciesPayload: {
            /** @description The structures (1 to 1000): each a SMILES (3D coordinates built, hydrogens added) or a V2000/V3000 molblock (3D coordinates kept; hydrogens added when missing). Exactly one of molecules and input_artifact_id */
            molecules?: string[];
            /** @description An uploaded molecule set or an earlier job's structures (e.g. a conformers or optimize result, with port "structures"), at most 1000. Exactly one of molecules and input_artifact_id */
            input_artifact_id?: string;
            /** @description The port of input_artifact_id holding the structures */
            port?: string;
            /**
             * @description gfn2 (GFN2-xTB), gfn1 (GFN1-xTB), gfnff (GFN-FF force field): xtb; pm7, pm6: MOPAC
             * @default gfn2
             */
            method?: "gfn2" | "gfn1" | "gfnff" | "pm7" | "pm6";
            /**
             * @description Implicit solvent: ALPB in xtb, COSMO (with the solvent's dielectric constant) in MOPAC; null: gas phase
             * @default null
             */
            solvent?: ("acetone" | "acetonitrile" | "aniline" | "benzaldehyde" | "benzene" | "ch2cl2" | "chcl3" | "cs2" | "dioxane" | "dmf" | "dmso" | "ether" | "ethylacetate" | "furane" | "hexadecane" | "hexane" | "methanol" | "nitromethane" | "octanol" | "woctanol" | "phenol" | "toluene" | "thf" | "water") | null;
            /** @description Total charge (default: each molecule's formal charge) */
            charge?: number;
            /** @description Spin multiplicity 2S+1 (default 1, or 2 for an odd number of electrons) */
            multiplicity?: number;
            /** @description Geometry optimisation cycles at most (engine default when absent) */
            max_iterations?: number;
            /**
             * @description Temperature of the thermochemistry, K (MOPAC tabulates whole kelvins: the nearest is used and reported)
             * @default 298.15
             */
            temperature_k?: number;
            /**
             * @description Frequency scale factor (e.g. a method's published one): multiplies the reported frequencies and the IR spectrum; the thermochemistry (ZPVE, H, S, G) is the engine's, from unscaled frequencies. Stated in the result
             * @default 1
             */
            scale_factor?: number;
        };
        /**
         * scan payload
         * @description Relaxed torsion scan with GFN2-xTB, GFN1-xTB or GFN-FF: the energy profile of a dihedral, each point optimised with the dihedral held
         */
        ScanPayload: {
            /** @description The structures (1 to 1000): each a SMILES (3D coordinates built, hydrogens added) or a V2000/V3000 molblock (3D coordinates kept; hydrogens added when missing). Exactly one of molecules and input_artifact_id */
            molecules?: string[];
            /** @description An uploaded molecule set or an earlier job's structures (e.g. a conformers or optimize result, with port "structures"), at most 1000. Exactly one of molecules and input_artifact_id */
            input_artifact_id?: string;
            /** @description The port of input_artifact_id holding the structures */
            port?: string;
            /**
             * @description gfn2 (GFN2-xTB), gfn1 (GFN1-xTB), gfnff (GFN-FF force field): xtb; pm7, pm6: MOPAC
             * @default gfn2
             */
            method?: "gfn2" | "gfn1" | "gfnff" | "pm7" | "pm6";
            /**
             * @description Implicit solvent: ALPB in xtb, COSMO (with the solvent's dielectric constant) in MOPAC; null: gas phase
             * @default null
             */
            solvent?: ("acetone" | "acetonitrile" | "aniline" | "benzaldehyde" | "benzene" | "ch2cl2" | "chcl3" | "cs2" | "dioxane" | "dmf" | "dmso" | "ether" | "ethylacetate" | "furane" | "hexadecane" | "hexane" | "methanol" | "nitromethane" | "octanol" | "woctanol" | "phenol" | "toluene" | "thf" | "water") | null;
            /** @description Total charge (default: each molecule's formal charge) */
            charge?: number;
            /** @description Spin multiplicity 2S+1 (default 1, or 2 for an odd number of electrons) */
            multiplicity?: number;
            /** @description Geometry optimisation cycles at most (engine default when absent) */
            max_iterations?: number;
            /** @description The torsion i, j, k, l: 4 atom indices, 0-based, in the input atom order (hydrogens after the heavy atoms, each atom’s in turn); i-j, j-k and k-l must be bonds */
            dihedral: number[];
            /** @description First angle, degrees */
            start_deg: number;
            /** @description Last angle, degrees (at most 360 from start_deg) */
            end_deg: number;
            /** @description Points of the scan, both ends included (evenly spaced) */
            steps: number;
        };
        /**
         * properties_qm payload
         * @description Electronic properties at DFT or HF (Psi4, NWChem): energy, dipole, HOMO/LUMO and orbital energies, Mulliken and Löwdin charges, cube files of orbitals and density
         */
        PropertiesQmPayload: {
            /** @description The structures (1 to 1000): each a SMILES (3D coordinates built, hydrogens added) or a V2000/V3000 molblock (3D coordinates kept; hydrogens added when missing). Exactly one of molecules and input_artifact_id */
            molecules?: string[];
            /** @description An uploaded molecule set or an earlier job's structures (e.g. a conformers or optimize result, with port "structures"), at most 1000. Exactly one of molecules and input_artifact_id */
            input_artifact_id?: string;
            /** @description The port of input_artifact_id holding the structures */
            port?: string;
            /**
             * @description hf, pbe, pbe0, b3lyp, wb97x-d: Psi4 (in a solvent NWChem, except wb97x-d); b3lyp-d3bj, pbe0-d3bj: NWChem (D3 with Becke-Johnson damping)
             * @default b3lyp
             */
            method?: "hf" | "pbe" | "pbe0" | "b3lyp" | "wb97x-d" | "b3lyp-d3bj" | "pbe0-d3bj";
            /**
             * @description def2-svp, def2-tzvp, 6-31g*, cc-pvdz
             * @default def2-svp
             */
            basis?: "def2-svp" | "def2-tzvp" | "6-31g*" | "cc-pvdz";
            /** @description The DFT engine (default: Psi4 where it can run the method, else NWChem; NWChem in a solvent). A method the engine cannot run is a 422 naming the ones that can */
            engine?: "psi4" | "nwchem";
            /**
             * @description Implicit solvent: ALPB in xtb, COSMO (with the solvent's dielectric constant) in MOPAC; null: gas phase
             * @default null
             */
            solvent?: ("acetone" | "acetonitrile" | "aniline" | "benzaldehyde" | "benzene" | "ch2cl2" | "chcl3" | "cs2" | "dioxane" | "dmf" | "dmso" | "ether" | "ethylacetate" | "furane" | "hexadecane" | "hexane" | "methanol" | "nitromethane" | "octanol" | "woctanol" | "phenol" | "toluene" | "thf" | "water") | null;
            /** @description Total charge (default: each molecule's formal charge) */
            charge?: number;
            /** @description Spin multiplicity 2S+1 (default 1, or 2 for an odd number of electrons) */
            multiplicity?: number;
            /** @description SCF iterations at most (DFT and HF; 100 when absent) */
            scf_max_iterations?: number;
            /** @description Cube files to write (Psi4): homo, lumo (the alpha orbitals), density; the `cubes` port, record id `<structure id>-<kind>` */
            cubes?: ("homo" | "lumo" | "density")[];
        };
        /**
         * rerank payload
         * @description A conformer ensemble re-ranked at DFT: the lowest by xtb energy get a DFT single point (or optimisation), returned lowest first with relative energies and Boltzmann weights
         */
        RerankPayload: {
            /** @description The structures (1 to 1000): each a SMILES (3D coordinates built, hydrogens added) or a V2000/V3000 molblock (3D coordinates kept; hydrogens added when missing). Exactly one of molecules and input_artifact_id */
            molecules?: string[];
            /** @description An uploaded molecule set or an earlier job's structures (e.g. a conformers or optimize result, with port "structures"), at most 1000. Exactly one of molecules and input_artifact_id */
            input_artifact_id?: string;
            /** @description The port of input_artifact_id holding the structures */
            port?: string;
            /**
             * @description hf, pbe, pbe0, b3lyp, wb97x-d: Psi4 (in a solvent NWChem, except wb97x-d); b3lyp-d3bj, pbe0-d3bj: NWChem (D3 with Becke-Johnson damping)
             * @default b3lyp-d3bj
             */
            method?: "hf" | "pbe" | "pbe0" | "b3lyp" | "wb97x-d" | "b3lyp-d3bj" | "pbe0-d3bj";
            /**
             * @description def2-svp, def2-tzvp, 6-31g*, cc-pvdz
             * @default def2-svp
             */
            basis?: "def2-svp" | "def2-tzvp" | "6-31g*" | "cc-pvdz";
            /** @description The DFT engine (default: Psi4 where it can run the method, else NWChem; NWChem in a solvent). A method the engine cannot run is a 422 naming the ones that can */
            engine?: "psi4" | "nwchem";
            /**
             * @description Implicit solvent: ALPB in xtb, COSMO (with the solvent's dielectric constant) in MOPAC; null: gas phase
             * @default null
             */
            solvent?: ("acetone" | "acetonitrile" | "aniline" | "benzaldehyde" | "benzene" | "ch2cl2" | "chcl3" | "cs2" | "dioxane" | "dmf" | "dmso" | "ether" | "ethylacetate" | "furane" | "hexadecane" | "hexane" | "methanol" | "nitromethane" | "octanol" | "woctanol" | "phenol" | "toluene" | "thf" | "water") | null;
            /** @description Total charge (default: each molecule's formal charge) */
            charge?: number;
            /** @description Spin multiplicity 2S+1 (default 1, or 2 for an odd number of electrons) */
            multiplicity?: number;
            /** @description SCF iterations at most (DFT and HF; 100 when absent) */
            scf_max_iterations?: number;
            /**
             * @description Conformers of each ensemble re-ranked: the lowest by their xtb energy
             * @default 10
             */
            top_n?: number;
            /**
             * @description Optimise each conformer at the DFT level before its energy (else a single point)
             * @default false
             */
            optimize?: boolean;
            /** @description Optimisation cycles at most (engine default when absent) */
            max_iterations?: number;
            /**
             * @description Temperature of the Boltzmann weights, K
             * @default 298.15
             */
            temperature_k?: number;
        };
        /**
         * pka payload
         * @description pKa values of the ionisable sites, and the charge state and microstates at a pH (GFN2-xTB in ALPB water, calibrated per site class)
         */
        PkaPayload: {
            /** @description The structures (1 to 1000): each a SMILES (3D coordinates built, hydrogens added) or a V2000/V3000 molblock (3D coordinates kept; hydrogens added when missing). Exactly one of molecules and input_artifact_id */
            molecules?: string[];
            /** @description An uploaded molecule set or an earlier job's structures (e.g. a conformers or optimize result, with port "structures"), at most 1000. Exactly one of molecules and input_artifact_id */
            input_artifact_id?: string;
            /** @description The port of input_artifact_id holding the structures */
            port?: string;
            /**
             * @description The pH of the microstate populations
             * @default 7.4
             */
            ph?: number;
            /**
             * @description gfn2: GFN2-xTB (xtb) geometries and energies; the calibration is for it alone
             * @default gfn2
             * @enum {string}
             */
            method?: "gfn2";
        };
        /**
         * tautomers payload
         * @description Tautomers enumerated by RDKit and ranked by GFN2-xTB free energy in a solvent (ALPB), with their populations
         */
        TautomersPayload: {
            /** @description The structures (1 to 1000): each a SMILES (3D coordinates built, hydrogens added) or a V2000/V3000 molblock (3D coordinates kept; hydrogens added when missing). Exactly one of molecules and input_artifact_id */
            molecules?: string[];
            /** @description An uploaded molecule set or an earlier job's structures (e.g. a conformers or optimize result, with port "structures"), at most 1000. Exactly one of molecules and input_artifact_id */
            input_artifact_id?: string;
            /** @description The port of input_artifact_id holding the structures */
            port?: string;
            /**
             * @description xtb's ALPB implicit solvent; null: gas phase
             * @default water
             */
            solvent?: ("acetone" | "acetonitrile" | "aniline" | "benzaldehyde" | "benzene" | "ch2cl2" | "chcl3" | "cs2" | "dioxane" | "dmf" | "dmso" | "ether" | "ethylacetate" | "furane" | "hexadecane" | "hexane" | "methanol" | "nitromethane" | "octanol" | "woctanol" | "phenol" | "toluene" | "thf" | "water") | null;
            /**
             * @description gfn2: GFN2-xTB (xtb) geometries and energies; the calibration is for it alone
             * @default gfn2
             * @enum {string}
             */
            method?: "gfn2";
            /**
             * @description A molecule with more tautomers than this is refused (a 422 at submit for inline molecules, an item error too_many_tautomers otherwise); at most 200
             * @default 50
             */
            max_tautomers?: number;
        };
        /**
         * bde payload
         * @description Homolytic bond dissociation enthalpies at 298 K (X-H bonds by default, weakest first): GFN2-xTB geometries, GFN2 or B3LYP energies, calibrated
         */
        BdePayload: {
            /** @description The structures (1 to 1000): each a SMILES (3D coordinates built, hydrogens added) or a V2000/V3000 molblock (3D coordinates kept; hydrogens added when missing). Exactly one of molecules and input_artifact_id */
            molecules?: string[];
            /** @description An uploaded molecule set or an earlier job's structures (e.g. a conformers or optimize result, with port "structures"), at most 1000. Exactly one of molecules and input_artifact_id */
            input_artifact_id?: string;
            /** @description The port of input_artifact_id holding the structures */
            port?: string;
            /** @description The bonds to break, [i, j] 0-based in the input's atom order (hydrogens after the heavy atoms). Default: every C-H, N-H, O-H and S-H bond, one per set of symmetry-equivalent hydrogens */
            bonds?: number[][];
            /**
             * @description gfn2: GFN2-xTB (xtb) geometries and thermal parts (the energies: `energies`)
             * @default gfn2
             * @enum {string}
             */
            method?: "gfn2";
            /**
             * @description The electronic energies: b3lyp (B3LYP/def2-SVP single points by Psi4 on the GFN2 geometries; calibrated leave-one-out error 1.5 kcal/mol) or gfn2 (GFN2-xTB alone: fast, 7.5 kcal/mol). Geometries and thermal parts are GFN2 either way
             * @default b3lyp
             */
            energies?: "b3lyp" | "gfn2";
        };
        /**
         * reactivity payload
         * @description HOMO/LUMO, vertical IP and EA, global electrophilicity and condensed Fukui indices (f+, f-, f0 per atom) of the GFN2-xTB optimised structure, with a drawing of the top sites of attack
         */
        ReactivityPayload: {
            /** @description The structures (1 to 1000): each a SMILES (3D coordinates built, hydrogens added) or a V2000/V3000 molblock (3D coordinates kept; hydrogens added when missing). Exactly one of molecules and input_artifact_id */
            molecules?: string[];
            /** @description An uploaded molecule set or an earlier job's structures (e.g. a conformers or optimize result, with port "structures"), at most 1000. Exactly one of molecules and input_artifact_id */
            input_artifact_id?: string;
            /** @description The port of input_artifact_id holding the structures */
            port?: string;
            /**
             * @description gfn2 (GFN2-xTB) only: xtb's vertical IP/EA, electrophilicity index and Fukui indices are GFN2's (docs/engines.md, "Reactivity")
             * @default gfn2
             * @enum {string}
             */
            method?: "gfn2";
            /**
             * @description Implicit solvent (ALPB in xtb) of the optimisation and of the property calculations; null: gas phase
             * @default null
             */
            solvent?: ("acetone" | "acetonitrile" | "aniline" | "benzaldehyde" | "benzene" | "ch2cl2" | "chcl3" | "cs2" | "dioxane" | "dmf" | "dmso" | "ether" | "ethylacetate" | "furane" | "hexadecane" | "hexane" | "methanol" | "nitromethane" | "octanol" | "woctanol" | "phenol" | "toluene" | "thf" | "water") | null;
        };
        /**
         * receptor_prepare payload
         * @description Receptor preparation: waters and hetero groups removed, missing heavy atoms added (PDBFixer), protonation states at a pH (PDB2PQR with PROPKA)
         */
        ReceptorPreparePayload: {
            /** @description An uploaded PDB file of the protein (at most 50 MB). Exactly one of receptor_artifact_id and pdb_id */
            receptor_artifact_id?: string;
            /** @description An RCSB PDB entry (e.g. 1IEP), fetched in the PDB format */
            pdb_id?: string;
            /**
             * @description pH of the protonation states (PROPKA through PDB2PQR)
             * @default 7.4
             */
            ph?: number;
            /**
             * @description Keep the waters (they are removed by default)
             * @default false
             */
            keep_waters?: boolean;
            /**
             * @description Residue names of hetero groups to keep (e.g. HEM, ZN); every other hetero group is removed. Kept groups get no hydrogens
             * @default []
             */
            keep_hetero?: string[];
            /**
             * @description Add the missing heavy atoms of the residues present (side chains, terminal OXT) with PDBFixer. Gaps (missing residues) are listed, never built. false: PDBFixer adds nothing, though PDB2PQR still rebuilds a residue's few missing heavy atoms (listed in changes)
             * @default true
             */
            fill_missing?: boolean;
        };
        /** @description properties: every molecular property of each molecule (as POST /describe) */
        PropertiesResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "properties";
            input: {
                source: "smiles" | "artifact";
                /** @description The uploaded set (source artifact) */
                artifact_id?: string;
                port?: string;
                molecules: number;
            };
            summary: {
                molecules: number;
                described: number;
                unparseable: number;
                too_large: number;
                failed: number;
            };
            /** @description One per molecule in input order, up to 1,000 molecules (else null: the ports have them) */
            items: {
                /** @description Position in the input (0-based) */
                index: number;
                /** @description The record id of an uploaded set, else the index */
                id: string;
                /** @description The record name of an uploaded set, when it has one */
                name?: string;
                smiles: string;
                properties: components["schemas"]["MolecularProperties"] | null;
                error: string | null;
            }[] | null;
            items_inline: boolean;
            /** @description The result artifact's ports and what each holds */
            ports: {
                properties: string;
                table: string;
            };
            errors: {
                index: number;
                id: string;
                /** @description The input, clipped to 200 characters */
                smiles: string;
                /** @description A code: unparseable, too_large, timeout, failed, ... */
                error: string;
                message?: string;
            }[];
            errors_listed: number;
            errors_total: number;
        };
        /** @description depict: an SVG drawing of each molecule */
        DepictResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "depict";
            input: {
                source: "smiles" | "artifact";
                /** @description The uploaded set (source artifact) */
                artifact_id?: string;
                port?: string;
                molecules: number;
            };
            size: {
                width: number;
                height: number;
            };
            summary: {
                molecules: number;
                depicted: number;
                unparseable: number;
                too_large: number;
                render_failed: number;
                failed: number;
            };
            /** @description One per molecule in input order, up to 1,000 molecules (else null: the port has the drawings) */
            items: {
                /** @description Position in the input (0-based) */
                index: number;
                /** @description The record id of an uploaded set, else the index */
                id: string;
                /** @description The record name of an uploaded set, when it has one */
                name?: string;
                smiles: string;
                /** @description The SVG, for up to 100 molecules (svg_inline) */
                svg?: string | null;
                error: string | null;
            }[] | null;
            items_inline: boolean;
            svg_inline: boolean;
            /** @description The result artifact's ports and what each holds */
            ports: {
                depictions: string;
            };
            errors: {
                index: number;
                id: string;
                /** @description The input, clipped to 200 characters */
                smiles: string;
                /** @description A code: unparseable, too_large, timeout, failed, ... */
                error: string;
                message?: string;
            }[];
            errors_listed: number;
            errors_total: number;
        };
        /** @description similarity_search: the library molecules most similar to the query */
        SimilaritySearchResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "similarity_search";
            query: {
                smiles: string;
                /** @description On bits of the query's fingerprint */
                bits_set: number;
            };
            /** @description Morgan (ECFP-like) bit vectors: radius 2, 2048 bits */
            fingerprint: {
                /** @enum {string} */
                type: "morgan";
                radius: number;
                n_bits: number;
            };
            /** @enum {string} */
            metric: "tanimoto";
            threshold: number;
            top_k: number;
            input: {
                source: "smiles" | "artifact";
                /** @description The uploaded set (source artifact) */
                artifact_id?: string;
                port?: string;
                molecules: number;
            };
            summary: {
                molecules: number;
                screened: number;
                unparseable: number;
                too_large: number;
                failed: number;
                above_threshold: number;
                returned: number;
            };
            /** @description Similarity >= threshold, best first (ties in input order), at most top_k */
            hits: {
                rank: number;
                /** @description Position in the input (0-based) */
                index: number;
                /** @description The record id of an uploaded set, else the index */
                id: string;
                /** @description The record name of an uploaded set, when it has one */
                name?: string;
                smiles: string;
                similarity: number;
            }[];
            /** @description The result artifact's ports and what each holds */
            ports: {
                hits: string;
            };
            errors: {
                index: number;
                id: string;
                /** @description The input, clipped to 200 characters */
                smiles: string;
                /** @description A code: unparseable, too_large, timeout, failed, ... */
                error: string;
                message?: string;
            }[];
            errors_listed: number;
            errors_total: number;
        };
        /** @description substructure_search: the library molecules that contain the query */
        SubstructureSearchResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "substructure_search";
            query: {
                text: string;
                read_as: "smarts" | "smiles";
                atoms: number;
                use_chirality: boolean;
            };
            input: {
                source: "smiles" | "artifact";
                /** @description The uploaded set (source artifact) */
                artifact_id?: string;
                port?: string;
                molecules: number;
            };
            summary: {
                molecules: number;
                screened: number;
                matched: number;
                unparseable: number;
                too_large: number;
                failed: number;
            };
            /** @description In input order, the first 10,000 (the port has all) */
            matches: {
                /** @description Position in the input (0-based) */
                index: number;
                /** @description The record id of an uploaded set, else the index */
                id: string;
                /** @description The record name of an uploaded set, when it has one */
                name?: string;
                smiles: string;
                match_count: number;
                /** @description The first match's atom indices, in the query's atom order */
                atoms: number[];
                bonds: number[];
            }[];
            matches_listed: number;
            /** @description The result artifact's ports and what each holds */
            ports: {
                matches: string;
            };
            errors: {
                index: number;
                id: string;
                /** @description The input, clipped to 200 characters */
                smiles: string;
                /** @description A code: unparseable, too_large, timeout, failed, ... */
                error: string;
                message?: string;
            }[];
            errors_listed: number;
            errors_total: number;
        };
        /** @description cluster: Butina clusters of the molecules on Morgan fingerprints */
        ClusterResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "cluster";
            /** @enum {string} */
            method: "butina";
            /** @description Morgan (ECFP-like) bit vectors: radius 2, 2048 bits */
            fingerprint: {
                /** @enum {string} */
                type: "morgan";
                radius: number;
                n_bits: number;
            };
            /** @description tanimoto distance (1 - similarity) */
            metric: string;
            cutoff: number;
            input: {
                source: "smiles" | "artifact";
                /** @description The uploaded set (source artifact) */
                artifact_id?: string;
                port?: string;
                molecules: number;
            };
            summary: {
                molecules: number;
                clustered: number;
                clusters: number;
                singletons: number;
                largest: number;
                unparseable: number;
                too_large: number;
                failed: number;
            };
            /** @description Cluster sizes, in cluster order */
            sizes: number[];
            /** @description Butina's order: largest first */
            clusters: {
                cluster: number;
                size: number;
                centroid: {
                    /** @description Position in the input (0-based) */
                    index: number;
                    /** @description The record id of an uploaded set, else the index */
                    id: string;
                    /** @description The record name of an uploaded set, when it has one */
                    name?: string;
                    smiles: string;
                };
                /** @description Molecule ids, centroid first */
                members: string[];
                member_indices: number[];
            }[];
            /** @description Each clustered molecule in input order, up to 1,000 molecules (else null: the port has them) */
            assignments: {
                /** @description Position in the input (0-based) */
                index: number;
                /** @description The record id of an uploaded set, else the index */
                id: string;
                /** @description The record name of an uploaded set, when it has one */
                name?: string;
                smiles: string;
                cluster: number;
                is_centroid: boolean;
            }[] | null;
            assignments_inline: boolean;
            /** @description The result artifact's ports and what each holds */
            ports: {
                clusters: string;
                assignments: string;
            };
            errors: {
                index: number;
                id: string;
                /** @description The input, clipped to 200 characters */
                smiles: string;
                /** @description A code: unparseable, too_large, timeout, failed, ... */
                error: string;
                message?: string;
            }[];
            errors_listed: number;
            errors_total: number;
        };
        /** @description filter: the molecules whose properties satisfy the expression */
        FilterResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "filter";
            input: {
                source: "smiles" | "artifact";
                /** @description The uploaded set (source artifact) */
                artifact_id?: string;
                port?: string;
                molecules: number;
            };
            expression: string;
            summary: {
                molecules: number;
                kept: number;
                dropped: number;
                errors: number;
            };
            /** @description The kept molecules in input order, when at most 1,000 (else null: the port has them) */
            kept: {
                /** @description Position in the input (0-based) */
                index: number;
                /** @description The record id of an uploaded set, else the index */
                id: string;
                /** @description The record name of an uploaded set, when it has one */
                name?: string;
                smiles: string;
                /** @description The numeric properties (mw, clogp, tpsa, qed, ...) */
                metrics: {
                    [key: string]: number;
                };
            }[] | null;
            /** @description The result artifact's ports and what each holds */
            ports: {
                molecules: string;
            };
            errors: {
                index: number;
                id: string;
                /** @description The input, clipped to 200 characters */
                smiles: string;
                /** @description A code: unparseable, too_large, timeout, failed, ... */
                error: string;
                message?: string;
            }[];
            errors_listed: number;
            errors_total: number;
        };
        /** @description profile_table: one row per molecule joining the results of properties, pka, tautomers, bde and reactivity jobs */
        ProfileTableResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "profile_table";
            /** @description The job types joined, in column order */
            sources: string[];
            /** @description The table's columns (the CSV's header) */
            columns: string[];
            summary: {
                molecules: number;
                /** @description Rows without an error */
                complete: number;
            };
            /** @description One row per molecule, in input order */
            items: {
                /** @description Position in the input (0-based) */
                index: number;
                id: string;
                name: string | null;
                smiles: string | null;
                /** @description null, or each source whose item failed: "pka: radical (...); bde: ..." */
                error: string | null;
                formula?: string | null;
                mw?: number | null;
                clogp?: number | null;
                tpsa?: number | null;
                hbd?: number | null;
                hba?: number | null;
                rotatable_bonds?: number | null;
                qed?: number | null;
                lipinski_pass?: boolean | null;
                ph?: number | null;
                dominant_smiles?: string | null;
                dominant_charge?: number | null;
                /** @description Each site as "<element><atom index> <acid|base> <pKa>", separated by "; " */
                pka_sites?: string | null;
                main_tautomer?: string | null;
                main_tautomer_fraction?: number | null;
                tautomers?: number | null;
                /** @description The weakest C-H bond as "<C>-<H>": its atoms, 0-based (the bde job's atoms) */
                weakest_ch_bond?: string | null;
                weakest_ch_bde_kcal_mol?: number | null;
                top_f_plus_atom?: number | null;
                top_f_plus?: number | null;
                top_f_minus_atom?: number | null;
                top_f_minus?: number | null;
            }[];
            ports: {
                [key: string]: string;
            };
        };
        /** @description wait: how long the job slept */
        WaitResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "wait";
            slept_seconds: number;
        };
        /** @description mpnn_train: the learning curve, test metrics and predictions, and the model card */
        MpnnTrainResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "mpnn_train";
            model_name: string;
            model_id: string;
            /** @description Of the ensemble on the test split (null when the split has none) */
            test_metrics: ({
                rmse: number;
                mae: number;
                r2: number | null;
            } | {
                roc_auc: number | null;
                accuracy: number;
            }) | null;
            /** @description rmse, mae, r2 (regression) or roc_auc, accuracy (classification) */
            val_metrics: {
                rmse: number;
                mae: number;
                r2: number | null;
            } | {
                roc_auc: number | null;
                accuracy: number;
            };
            /** @description Every epoch of every ensemble member */
            learning_curve: {
                member: number;
                members: number;
                epoch: number;
                epochs: number;
                train_loss: number;
                val_metric: number | null;
                lr: number;
            }[];
            /** @description Parity data: each test row, its measured and its predicted value */
            test_predictions: {
                row: number;
                smiles: string;
                target: number;
                prediction: number;
                uncertainty: number | null;
            }[];
            data: {
                rows: number;
                used: number;
                unreadable: number;
                /** @description Rows RDKit cannot read (the first 100) */
                unreadable_rows: number[];
                duplicates: number;
                /** @description Rows dropped as repeats of an earlier row's structure (the first 100) */
                duplicate_rows: number[];
            };
            model_card: {
                /** @description user/<model_name>: how /inference/predict names it */
                model: string;
                model_id: string;
                name: string;
                task: "regression" | "classification";
                target: string;
                units: string | null;
                /** @description depth, hidden_size, ffn_layers, dropout, aggregation, ... */
                architecture: {
                    [key: string]: unknown;
                };
                n_train: number;
                n_val: number;
                n_test: number;
                /** @description type, seed, val_fraction, test_fraction */
                split: {
                    [key: string]: unknown;
                };
                /** @description rmse, mae, r2 (regression) or roc_auc, accuracy (classification) */
                metrics: {
                    rmse: number;
                    mae: number;
                    r2: number | null;
                } | {
                    roc_auc: number | null;
                    accuracy: number;
                };
                /** @description As trained, defaults filled in */
                hyperparameters: {
                    [key: string]: unknown;
                };
                /** @description set (none or rdkit_2d), description and the descriptors appended before the feed-forward network */
                molecule_features: {
                    [key: string]: unknown;
                };
                size_bytes: number;
                ensemble_size: number;
                data: {
                    rows: number;
                    used: number;
                    unreadable: number;
                    /** @description Rows RDKit cannot read (the first 100) */
                    unreadable_rows: number[];
                    duplicates: number;
                    /** @description Rows dropped as repeats of an earlier row's structure (the first 100) */
                    duplicate_rows: number[];
                };
                /** @description rule, fingerprint, radius, n_bits, threshold, training_molecules */
                applicability_domain: {
                    [key: string]: unknown;
                };
            };
        };
        /** @description mpnn_predict: a prediction per molecule */
        MpnnPredictResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "mpnn_predict";
            /** @description public/<id> or user/<name> */
            model: string;
            task: "regression" | "classification";
            target: string;
            units: string | null;
            counts: {
                molecules: number;
                ok: number;
                failed: number;
            };
            /** @description One per molecule, in input order */
            predictions: components["schemas"]["PredictionItem"][];
        };
        OptimizeResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "optimize";
            method: string;
            solvent: string | null;
            /** @description DFT and HF: the engine that ran it */
            engine?: "psi4" | "nwchem";
            /** @description DFT and HF: the engine's version */
            engine_version?: string | null;
            /** @description DFT and HF: the basis set */
            basis?: "def2-svp" | "def2-tzvp" | "6-31g*" | "cc-pvdz";
            summary: {
                structures: number;
                completed: number;
                errors: number;
            } & {
                [key: string]: unknown;
            };
            /** @description One per input structure, in input order */
            items: ({
                /** @description Position in the input (0-based) */
                index: number;
                /** @description The record id of an uploaded set, else the index */
                id: string;
                name: string | null;
                /** @description null, or a code: unparseable, too_large, unsupported_element, preparation_failed, charge_multiplicity, scf_not_converged, not_converged, engine_failed, timeout, ... */
                error: string | null;
                /** @description What happened, in the engine's own words where it has some */
                detail: string | null;
                /** @description V2000 molblock, 3D coordinates in Å, atoms in the input order (hydrogens after the heavy atoms) */
                molblock?: string;
                /** @description Total energy (xtb; Psi4 and NWChem: the SCF energy, with D3 and COSMO where they ran); MOPAC's heat of formation in Hartree */
                energy_hartree?: number;
                /** @description MOPAC methods only */
                heat_of_formation_kcal_mol?: number;
                homo_lumo_gap_ev?: number | null;
                dipole_debye?: number | null;
                /** @description Partial charges, per atom */
                charges?: number[] | null;
                charge?: number;
                multiplicity?: number;
                /** @description DFT and HF: the engine that ran it */
                engine?: "psi4" | "nwchem";
                /** @description DFT and HF: the engine's version */
                engine_version?: string | null;
                /** @description DFT and HF: the basis set */
                basis?: "def2-svp" | "def2-tzvp" | "6-31g*" | "cc-pvdz";
                /** @description DFT and HF: the method (hf, pbe, pbe0, b3lyp, wb97x-d, b3lyp-d3bj, pbe0-d3bj) */
                method?: string;
                homo_ev?: number | null;
                lumo_ev?: number | null;
                /** @description DFT and HF: basis functions of the calculation */
                basis_functions?: number | null;
                converged?: boolean;
                iterations?: number | null;
            } & {
                [key: string]: unknown;
            })[];
            /** @description The result artifact's ports: structures or poses (SDF), table (CSV), logs, and plots where there are some */
            ports: {
                [key: string]: string;
            };
        } & {
            [key: string]: unknown;
        };
        SinglepointResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "singlepoint";
            method: string;
            solvent: string | null;
            /** @description DFT and HF: the engine that ran it */
            engine?: "psi4" | "nwchem";
            /** @description DFT and HF: the engine's version */
            engine_version?: string | null;
            /** @description DFT and HF: the basis set */
            basis?: "def2-svp" | "def2-tzvp" | "6-31g*" | "cc-pvdz";
            summary: {
                structures: number;
                completed: number;
                errors: number;
            } & {
                [key: string]: unknown;
            };
            /** @description One per input structure, in input order */
            items: ({
                /** @description Position in the input (0-based) */
                index: number;
                /** @description The record id of an uploaded set, else the index */
                id: string;
                name: string | null;
                /** @description null, or a code: unparseable, too_large, unsupported_element, preparation_failed, charge_multiplicity, scf_not_converged, not_converged, engine_failed, timeout, ... */
                error: string | null;
                /** @description What happened, in the engine's own words where it has some */
                detail: string | null;
                /** @description V2000 molblock, 3D coordinates in Å, atoms in the input order (hydrogens after the heavy atoms) */
                molblock?: string;
                /** @description Total energy (xtb; Psi4 and NWChem: the SCF energy, with D3 and COSMO where they ran); MOPAC's heat of formation in Hartree */
                energy_hartree?: number;
                /** @description MOPAC methods only */
                heat_of_formation_kcal_mol?: number;
                homo_lumo_gap_ev?: number | null;
                dipole_debye?: number | null;
                /** @description Partial charges, per atom */
                charges?: number[] | null;
                charge?: number;
                multiplicity?: number;
                /** @description DFT and HF: the engine that ran it */
                engine?: "psi4" | "nwchem";
                /** @description DFT and HF: the engine's version */
                engine_version?: string | null;
                /** @description DFT and HF: the basis set */
                basis?: "def2-svp" | "def2-tzvp" | "6-31g*" | "cc-pvdz";
                /** @description DFT and HF: the method (hf, pbe, pbe0, b3lyp, wb97x-d, b3lyp-d3bj, pbe0-d3bj) */
                method?: string;
                homo_ev?: number | null;
                lumo_ev?: number | null;
                /** @description DFT and HF: basis functions of the calculation */
                basis_functions?: number | null;
            } & {
                [key: string]: unknown;
            })[];
            /** @description The result artifact's ports: structures or poses (SDF), table (CSV), logs, and plots where there are some */
            ports: {
                [key: string]: string;
            };
        } & {
            [key: string]: unknown;
        };
        DockingResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "docking";
            method: string;
            summary: {
                structures: number;
                completed: number;
                errors: number;
            } & {
                [key: string]: unknown;
            };
            /** @description One per input structure, in input order */
            items: ({
                /** @description Position in the input (0-based) */
                index: number;
                /** @description The record id of an uploaded set, else the index */
                id: string;
                name: string | null;
                /** @description null, or a code: unparseable, too_large, unsupported_element, preparation_failed, charge_multiplicity, scf_not_converged, not_converged, engine_failed, timeout, ... */
                error: string | null;
                /** @description What happened, in the engine's own words where it has some */
                detail: string | null;
                /** @description In the payload's pose_order (Vina's score by default, best first); checks, strain_kcal_mol and interactions with pose_checks (the default) */
                poses?: ({
                    /** @description V2000 molblock, 3D coordinates in Å, atoms in the input order (hydrogens after the heavy atoms) */
                    molblock: string;
                    score_kcal_mol: number;
                    rmsd_lb: number;
                    rmsd_ub: number;
                    checks?: {
                        /** @description true when no check failed */
                        passed: boolean;
                        failed: ("bond_lengths" | "bond_angles" | "aromatic_ring_flatness" | "stereochemistry" | "internal_clash" | "protein_clash")[];
                        /** @description Per check its figures: counts, tolerance and the worst bond, angle, pair or ring; strain: method, solvent, conformers, e_pose_hartree, e_min_hartree, heavy_atom_rmsd_after_relaxation, or the reason it is null */
                        details: {
                            [key: string]: {
                                [key: string]: unknown;
                            };
                        };
                    };
                    /** @description GFN-FF energy of the pose relaxed with its heavy atoms restrained, minus the lowest of a conformer search of the same molecule (ALPB water), kcal/mol, never negative; null when not asked for or not computable (checks.details.strain.reason) */
                    strain_kcal_mol?: number | null;
                    /** @description Hydrogen bonds first, then salt bridges, pi stacking, cation-pi, hydrophobic contacts and halogen bonds; shortest first within a type */
                    interactions?: {
                        /** @description PLIP's interaction type */
                        type: "hbond" | "salt_bridge" | "pi_stack" | "cation_pi" | "hydrophobic" | "halogen";
                        /** @description The pose's atoms (0-based, molblock order): the acceptor or donor, the ring, the charged group, the carbon */
                        ligand_atoms: number[];
                        /** @description RESNAME CHAIN NUMBER, e.g. MET A 318 */
                        residue: string;
                        /** @description Donor-acceptor, centre-centre or atom-atom distance (A), as PLIP gives it */
                        distance_a: number | null;
                    }[];
                } & {
                    [key: string]: unknown;
                })[];
            } & {
                [key: string]: unknown;
            })[];
            /** @description The result artifact's ports: structures or poses (SDF), table (CSV), logs, and plots where there are some */
            ports: {
                [key: string]: string;
            };
        } & {
            [key: string]: unknown;
        };
        PoseCheckResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "pose_check";
            method: string;
            receptor: {
                [key: string]: unknown;
            };
            summary: {
                structures: number;
                completed: number;
                errors: number;
            } & {
                [key: string]: unknown;
            };
            /** @description One per input structure, in input order */
            items: ({
                /** @description Position in the input (0-based) */
                index: number;
                /** @description The record id of an uploaded set, else the index */
                id: string;
                name: string | null;
                /** @description null, or a code: unparseable, too_large, unsupported_element, preparation_failed, charge_multiplicity, scf_not_converged, not_converged, engine_failed, timeout, ... */
                error: string | null;
                /** @description What happened, in the engine's own words where it has some */
                detail: string | null;
                checks?: {
                    /** @description true when no check failed */
                    passed: boolean;
                    failed: ("bond_lengths" | "bond_angles" | "aromatic_ring_flatness" | "stereochemistry" | "internal_clash" | "protein_clash")[];
                    /** @description Per check its figures: counts, tolerance and the worst bond, angle, pair or ring; strain: method, solvent, conformers, e_pose_hartree, e_min_hartree, heavy_atom_rmsd_after_relaxation, or the reason it is null */
                    details: {
                        [key: string]: {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description GFN-FF energy of the pose relaxed with its heavy atoms restrained, minus the lowest of a conformer search of the same molecule (ALPB water), kcal/mol, never negative; null when not asked for or not computable (checks.details.strain.reason) */
                strain_kcal_mol?: number | null;
                /** @description Hydrogen bonds first, then salt bridges, pi stacking, cation-pi, hydrophobic contacts and halogen bonds; shortest first within a type */
                interactions?: {
                    /** @description PLIP's interaction type */
                    type: "hbond" | "salt_bridge" | "pi_stack" | "cation_pi" | "hydrophobic" | "halogen";
                    /** @description The pose's atoms (0-based, molblock order): the acceptor or donor, the ring, the charged group, the carbon */
                    ligand_atoms: number[];
                    /** @description RESNAME CHAIN NUMBER, e.g. MET A 318 */
                    residue: string;
                    /** @description Donor-acceptor, centre-centre or atom-atom distance (A), as PLIP gives it */
                    distance_a: number | null;
                }[];
                heavy_atoms?: number;
            } & {
                [key: string]: unknown;
            })[];
            /** @description The result artifact's ports: structures or poses (SDF), table (CSV), logs, and plots where there are some */
            ports: {
                [key: string]: string;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A receptor's pockets, best first */
        PocketsResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "pockets";
            /** @enum {string} */
            method: "ligsite";
            /** @description The receptor searched, and where it came from */
            receptor: {
                sha256: string;
                residues: number;
                heavy_atoms: number;
            } & {
                [key: string]: unknown;
            };
            /** @description The LIGSITE parameters (docs/structure.md, "Pockets") */
            parameters: {
                [key: string]: number;
            };
            grid: {
                spacing_a: number;
                points: number;
            };
            /** @description Pockets found before max_pockets was applied */
            pockets_found: number;
            /** @description Best first */
            pockets: {
                rank: number;
                /** @description The mean of its grid points, x y z (A) */
                center: number[];
                /** @description Edge lengths of a box that holds it: its points' extent plus 4 A on every side (a Vina box with center) */
                size: number[];
                /** @description Its grid points times the cell volume (A^3) */
                volume_a3: number;
                /** @description Grid points x mean buriedness */
                score: number;
                /** @description Mean directions (of 7) with protein on both sides of its points */
                buriedness: number;
                /** @description The residues lining it (a heavy atom within 4 A of a point), as RESNAME CHAIN NUMBER (e.g. MET A 318) */
                residues: string[];
            }[];
            /** @description The search, in its thread */
            runtime_ms: number;
        };
        ConformersResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "conformers";
            method: string;
            summary: {
                structures: number;
                completed: number;
                errors: number;
            } & {
                [key: string]: unknown;
            };
            /** @description One per input structure, in input order */
            items: ({
                /** @description Position in the input (0-based) */
                index: number;
                /** @description The record id of an uploaded set, else the index */
                id: string;
                name: string | null;
                /** @description null, or a code: unparseable, too_large, unsupported_element, preparation_failed, charge_multiplicity, scf_not_converged, not_converged, engine_failed, timeout, ... */
                error: string | null;
                /** @description What happened, in the engine's own words where it has some */
                detail: string | null;
                /** @description Lowest first; the weights sum to 1 */
                conformers?: ({
                    /** @description V2000 molblock, 3D coordinates in Å, atoms in the input order (hydrogens after the heavy atoms) */
                    molblock: string;
                    energy_hartree: number;
                    relative_kcal: number;
                    boltzmann_weight: number;
                } & {
                    [key: string]: unknown;
                })[];
            } & {
                [key: string]: unknown;
            })[];
            /** @description The result artifact's ports: structures or poses (SDF), table (CSV), logs, and plots where there are some */
            ports: {
                [key: string]: string;
            };
        } & {
            [key: string]: unknown;
        };
        FrequenciesResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "frequencies";
            method: string;
            /** @description The frequency scale factor applied to frequencies_cm1 and the IR spectrum (payload scale_factor; 1: the engine's frequencies); the thermochemistry is from the unscaled ones */
            scale_factor: number;
            summary: {
                structures: number;
                completed: number;
                errors: number;
            } & {
                [key: string]: unknown;
            };
            /** @description One per input structure, in input order */
            items: ({
                /** @description Position in the input (0-based) */
                index: number;
                /** @description The record id of an uploaded set, else the index */
                id: string;
                name: string | null;
                /** @description null, or a code: unparseable, too_large, unsupported_element, preparation_failed, charge_multiplicity, scf_not_converged, not_converged, engine_failed, timeout, ... */
                error: string | null;
                /** @description What happened, in the engine's own words where it has some */
                detail: string | null;
                /** @description V2000 molblock, 3D coordinates in Å, atoms in the input order (hydrogens after the heavy atoms) */
                molblock?: string;
                energy_hartree?: number;
                /** @description Harmonic frequencies; imaginary ones negative */
                frequencies_cm1?: number[];
                ir_intensities_km_mol?: number[];
                n_imaginary?: number;
                zpve_hartree?: number;
                enthalpy_hartree?: number;
                entropy_cal_mol_k?: number;
                gibbs_hartree?: number;
                temperature_k?: number;
            } & {
                [key: string]: unknown;
            })[];
            /** @description The result artifact's ports: structures or poses (SDF), table (CSV), logs, and plots where there are some */
            ports: {
                [key: string]: string;
            };
        } & {
            [key: string]: unknown;
        };
        ScanResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "scan";
            method: string;
            summary: {
                structures: number;
                completed: number;
                errors: number;
            } & {
                [key: string]: unknown;
            };
            /** @description One per input structure, in input order */
            items: ({
                /** @description Position in the input (0-based) */
                index: number;
                /** @description The record id of an uploaded set, else the index */
                id: string;
                name: string | null;
                /** @description null, or a code: unparseable, too_large, unsupported_element, preparation_failed, charge_multiplicity, scf_not_converged, not_converged, engine_failed, timeout, ... */
                error: string | null;
                /** @description What happened, in the engine's own words where it has some */
                detail: string | null;
                points?: ({
                    angle_deg: number;
                    energy_hartree: number;
                    relative_kcal: number;
                    /** @description V2000 molblock, 3D coordinates in Å, atoms in the input order (hydrogens after the heavy atoms) */
                    molblock: string;
                } & {
                    [key: string]: unknown;
                })[];
            } & {
                [key: string]: unknown;
            })[];
            /** @description The result artifact's ports: structures or poses (SDF), table (CSV), logs, and plots where there are some */
            ports: {
                [key: string]: string;
            };
        } & {
            [key: string]: unknown;
        };
        PropertiesQmResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "properties_qm";
            method: string;
            solvent: string | null;
            /** @description DFT and HF: the engine that ran it */
            engine?: "psi4" | "nwchem";
            /** @description DFT and HF: the engine's version */
            engine_version?: string | null;
            /** @description DFT and HF: the basis set */
            basis?: "def2-svp" | "def2-tzvp" | "6-31g*" | "cc-pvdz";
            summary: {
                structures: number;
                completed: number;
                errors: number;
            } & {
                [key: string]: unknown;
            };
            /** @description One per input structure, in input order */
            items: ({
                /** @description Position in the input (0-based) */
                index: number;
                /** @description The record id of an uploaded set, else the index */
                id: string;
                name: string | null;
                /** @description null, or a code: unparseable, too_large, unsupported_element, preparation_failed, charge_multiplicity, scf_not_converged, not_converged, engine_failed, timeout, ... */
                error: string | null;
                /** @description What happened, in the engine's own words where it has some */
                detail: string | null;
                /** @description V2000 molblock, 3D coordinates in Å, atoms in the input order (hydrogens after the heavy atoms) */
                molblock?: string;
                /** @description The SCF energy (with D3 and COSMO where they ran) */
                energy_hartree?: number;
                dipole_debye?: number | null;
                homo_ev?: number | null;
                lumo_ev?: number | null;
                homo_lumo_gap_ev?: number | null;
                /** @description Every orbital energy, lowest first (the alpha orbitals of an open shell) */
                orbital_energies_ev?: number[];
                /** @description Open shells: the beta orbitals */
                orbital_energies_beta_ev?: number[];
                /** @description Mulliken charges, per atom in the molblock order */
                mulliken_charges?: number[] | null;
                /** @description Löwdin charges, per atom (null where the engine gives none) */
                lowdin_charges?: number[] | null;
                charge?: number;
                multiplicity?: number;
                basis_functions?: number | null;
                /** @description The cube files written for this structure (when cubes were asked for): the `cubes` port, record id <id>-<kind> */
                cubes?: ("homo" | "lumo" | "density")[];
                /** @description DFT and HF: the engine that ran it */
                engine?: "psi4" | "nwchem";
                /** @description DFT and HF: the engine's version */
                engine_version?: string | null;
                /** @description DFT and HF: the basis set */
                basis?: "def2-svp" | "def2-tzvp" | "6-31g*" | "cc-pvdz";
                method?: string;
            } & {
                [key: string]: unknown;
            })[];
            /** @description The result artifact's ports: structures or poses (SDF), table (CSV), logs, and plots where there are some */
            ports: {
                [key: string]: string;
            };
        } & {
            [key: string]: unknown;
        };
        RerankResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "rerank";
            method: string;
            solvent: string | null;
            /** @description DFT and HF: the engine that ran it */
            engine?: "psi4" | "nwchem";
            /** @description DFT and HF: the engine's version */
            engine_version?: string | null;
            /** @description DFT and HF: the basis set */
            basis?: "def2-svp" | "def2-tzvp" | "6-31g*" | "cc-pvdz";
            temperature_k: number;
            optimize: boolean;
            summary: {
                structures: number;
                completed: number;
                errors: number;
            } & {
                [key: string]: unknown;
            };
            /** @description One per input structure, in input order */
            items: ({
                /** @description Position in the input (0-based) */
                index: number;
                /** @description The record id of an uploaded set, else the index */
                id: string;
                name: string | null;
                /** @description null, or a code: unparseable, too_large, unsupported_element, preparation_failed, charge_multiplicity, scf_not_converged, not_converged, engine_failed, timeout, ... */
                error: string | null;
                /** @description What happened, in the engine's own words where it has some */
                detail: string | null;
                /** @description The re-ranked conformers, lowest DFT energy first; the weights sum to 1 */
                conformers?: ({
                    /** @description The conformer's record id in the input */
                    id: string;
                    /** @description V2000 molblock, 3D coordinates in Å, atoms in the input order (hydrogens after the heavy atoms) */
                    molblock: string;
                    /** @description The DFT energy (with D3 and COSMO where they ran) */
                    energy_hartree: number;
                    relative_kcal: number;
                    boltzmann_weight: number;
                    /** @description Its xtb energy relative to the lowest re-ranked, as it came (null when the input had no energy_hartree) */
                    xtb_relative_kcal: number | null;
                } & {
                    [key: string]: unknown;
                })[];
                /** @description Conformers in the ensemble given */
                ensemble_size?: number;
                /** @description Conformers re-ranked (at most top_n) */
                reranked?: number;
                /** @description Whether the re-ranked ones were chosen by their xtb energy (else the first top_n as given) */
                ranked_by_xtb_energy?: boolean;
                basis_functions?: number | null;
                /** @description DFT and HF: the engine that ran it */
                engine?: "psi4" | "nwchem";
                /** @description DFT and HF: the engine's version */
                engine_version?: string | null;
                /** @description DFT and HF: the basis set */
                basis?: "def2-svp" | "def2-tzvp" | "6-31g*" | "cc-pvdz";
                method?: string;
            } & {
                [key: string]: unknown;
            })[];
            /** @description The result artifact's ports: structures or poses (SDF), table (CSV), logs, and plots where there are some */
            ports: {
                [key: string]: string;
            };
        } & {
            [key: string]: unknown;
        };
        PkaResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "pka";
            method: string;
            ph: number;
            /** @enum {string} */
            solvent: "water";
            summary: {
                structures: number;
                completed: number;
                errors: number;
            } & {
                [key: string]: unknown;
            };
            /** @description One per input structure, in input order */
            items: ({
                /** @description Position in the input (0-based) */
                index: number;
                /** @description The record id of an uploaded set, else the index */
                id: string;
                name: string | null;
                /** @description null, or a code: unparseable, too_large, unsupported_element, preparation_failed, charge_multiplicity, scf_not_converged, not_converged, engine_failed, timeout, ... */
                error: string | null;
                /** @description What happened, in the engine's own words where it has some */
                detail: string | null;
                /** @description SMILES (RDKit canonical) */
                smiles?: string;
                sites?: {
                    /** @description The site atom, 0-based in the input's atom order */
                    atom_index: number;
                    element: string;
                    /** @description acid: loses a proton; base: gains one (its pka is that of its conjugate acid) */
                    kind: "acid" | "base";
                    /** @description The site class of the SMARTS catalogue (docs/questions.md, "pKa") */
                    class: string;
                    /** @description The micro pKa; null when the class has no calibration (see reason) */
                    pka: number | null;
                    /** @description Why pka is null */
                    reason: string | null;
                    /** @description E(deprotonated) - E(protonated) at GFN2/ALPB(water), kcal/mol, in the site's context */
                    delta_kcal: number | null;
                }[];
                /** @description The protonation states at `ph` of at least 0.1%, most abundant first (at most 16) */
                microstates?: {
                    /** @description SMILES (RDKit canonical) */
                    smiles: string;
                    charge: number;
                    fraction: number;
                }[];
                /** @description SMILES (RDKit canonical) */
                dominant_smiles?: string;
                dominant_charge?: number;
            } & {
                [key: string]: unknown;
            })[];
            /** @description The result artifact's ports: structures or poses (SDF), table (CSV), logs, and plots where there are some */
            ports: {
                [key: string]: string;
            };
        } & {
            [key: string]: unknown;
        };
        TautomersResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "tautomers";
            method: string;
            solvent: string | null;
            temperature_k: number;
            summary: {
                structures: number;
                completed: number;
                errors: number;
            } & {
                [key: string]: unknown;
            };
            /** @description One per input structure, in input order */
            items: ({
                /** @description Position in the input (0-based) */
                index: number;
                /** @description The record id of an uploaded set, else the index */
                id: string;
                name: string | null;
                /** @description null, or a code: unparseable, too_large, unsupported_element, preparation_failed, charge_multiplicity, scf_not_converged, not_converged, engine_failed, timeout, ... */
                error: string | null;
                /** @description What happened, in the engine's own words where it has some */
                detail: string | null;
                /** @description The main tautomer (the most abundant) */
                smiles?: string;
                /** @description Lowest first */
                tautomers?: {
                    /** @description SMILES (RDKit canonical) */
                    smiles: string;
                    relative_kcal: number;
                    fraction: number;
                    /** @description What it is ranked by: its GFN2 free energy at 298.15 K, or (energy 'electronic') its energy plus the lowest's thermal part */
                    energy_hartree: number;
                    /** @description free: within 10 kcal/mol of the lowest (at most 10 of them); electronic: the others */
                    energy: "free" | "electronic";
                    /** @description Its lowest structure, optimised (V2000, 3D) */
                    molblock: string;
                }[];
                /** @description Tautomers RDKit enumerated */
                count?: number;
            } & {
                [key: string]: unknown;
            })[];
            /** @description The result artifact's ports: structures or poses (SDF), table (CSV), logs, and plots where there are some */
            ports: {
                [key: string]: string;
            };
        } & {
            [key: string]: unknown;
        };
        BdeResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "bde";
            method: string;
            energies: string;
            calibrated: boolean;
            summary: {
                structures: number;
                completed: number;
                errors: number;
            } & {
                [key: string]: unknown;
            };
            /** @description One per input structure, in input order */
            items: ({
                /** @description Position in the input (0-based) */
                index: number;
                /** @description The record id of an uploaded set, else the index */
                id: string;
                name: string | null;
                /** @description null, or a code: unparseable, too_large, unsupported_element, preparation_failed, charge_multiplicity, scf_not_converged, not_converged, engine_failed, timeout, ... */
                error: string | null;
                /** @description What happened, in the engine's own words where it has some */
                detail: string | null;
                /** @description Weakest first */
                bonds?: {
                    /** @description 0-based, the input's atom order (hydrogens after the heavy atoms) */
                    atoms: number[];
                    elements: string[];
                    /** @description Symmetry-equivalent bonds it stands for (hydrogens of one class) */
                    equivalent: number;
                    bde_kcal_mol: number;
                    raw_kcal_mol: number;
                }[];
                /** @description What the energies are: gfn2, or the DFT method and basis */
                energies?: string;
            } & {
                [key: string]: unknown;
            })[];
            /** @description The result artifact's ports: structures or poses (SDF), table (CSV), logs, and plots where there are some */
            ports: {
                [key: string]: string;
            };
        } & {
            [key: string]: unknown;
        };
        ReactivityResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "reactivity";
            method: string;
            solvent: string | null;
            /** @description The xtb version that computed the figures */
            xtb_version: string | null;
            summary: {
                structures: number;
                completed: number;
                errors: number;
            } & {
                [key: string]: unknown;
            };
            /** @description One per input structure, in input order */
            items: ({
                /** @description Position in the input (0-based) */
                index: number;
                /** @description The record id of an uploaded set, else the index */
                id: string;
                name: string | null;
                /** @description null, or a code: unparseable, too_large, unsupported_element, preparation_failed, charge_multiplicity, scf_not_converged, not_converged, engine_failed, timeout, ... */
                error: string | null;
                /** @description What happened, in the engine's own words where it has some */
                detail: string | null;
                /** @description V2000 molblock, 3D coordinates in Å, atoms in the input order (hydrogens after the heavy atoms) */
                molblock?: string;
                /** @description The neutral's HOMO, eV (xtb's orbital table, 4 decimals) */
                homo_ev?: number | null;
                /** @description The neutral's LUMO, eV */
                lumo_ev?: number | null;
                /** @description Vertical ionisation potential, eV (xtb's delta SCC IP, with its empirical shift) */
                ip_ev?: number;
                /** @description Vertical electron affinity, eV (xtb's delta SCC EA; negative: the anion lies above the neutral) */
                ea_ev?: number;
                /** @description Global electrophilicity index (IP+EA)^2/(8(IP-EA)), eV */
                electrophilicity_ev?: number;
                /** @description Condensed Fukui indices, one per atom in atom order (3 decimals, as xtb prints them); each kind sums to about 1 */
                fukui?: {
                    /** @description 0-based, the input order (hydrogens after the heavy atoms) */
                    atom_index: number;
                    /** @description f+: charge change on adding an electron, q(N) - q(N+1): where a nucleophile attacks */
                    f_plus: number;
                    /** @description f-: charge change on removing an electron, q(N-1) - q(N): where an electrophile attacks */
                    f_minus: number;
                    /** @description f0 = (f+ + f-)/2: radical attack */
                    f_zero: number;
                }[];
            } & {
                [key: string]: unknown;
            })[];
            /** @description The result artifact's ports: structures or poses (SDF), table (CSV), logs, and plots where there are some */
            ports: {
                [key: string]: string;
            };
        } & {
            [key: string]: unknown;
        };
        ReceptorPrepareResult: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "receptor_prepare";
            /** @enum {string} */
            method: "pdbfixer+pdb2pqr";
            /** @description The input: artifact_id or pdb_id (with its source), sha256, residues, hetero groups removed and kept */
            receptor: {
                [key: string]: unknown;
            };
            ph: number;
            fill_missing: boolean;
            keep_waters: boolean;
            keep_hetero: string[];
            /** @description PDBFixer's OpenMM */
            openmm_version: string | null;
            pdb2pqr_version: string | null;
            summary: {
                structures: number;
                completed: number;
                errors: number;
            };
            items: {
                index: number;
                id: string;
                name: string | null;
                error: null;
                detail: null;
                /** @description Atoms of the prepared PDB, hydrogens included */
                atoms: number;
                /** @description Hydrogens of the prepared PDB: all added by PDB2PQR (the input's own are dropped first) */
                hydrogens_added: number;
                /** @description Atoms added (per residue) and groups removed (waters, hetero groups) */
                changes: {
                    /** @description `RESNAME CHAIN NUMBER` (e.g. HIS A 110; chain _ when blank) */
                    residue: string;
                    what: string;
                }[];
                /** @description Every His (HID, HIE, HIP), and every Asp, Glu, Lys, Cys, Arg, Tyr not in its usual state (ASH, GLH, LYN, CYX, CYM, ARN, TYM) */
                protonation: {
                    /** @description `RESNAME CHAIN NUMBER` (e.g. HIS A 110; chain _ when blank) */
                    residue: string;
                    state: string;
                }[];
                /** @description Gaps in the chains (residues of SEQRES without coordinates): not built */
                missing_residues: {
                    chain: string;
                    where: string;
                    residues: number;
                    terminal: boolean;
                }[];
            }[];
            ports: {
                receptor: string;
                logs: string;
            };
        };
        /** @description The result document of a completed job: its job type's <Type>Result */
        JobResult: components["schemas"]["PropertiesResult"] | components["schemas"]["DepictResult"] | components["schemas"]["SimilaritySearchResult"] | components["schemas"]["SubstructureSearchResult"] | components["schemas"]["ClusterResult"] | components["schemas"]["FilterResult"] | components["schemas"]["ProfileTableResult"] | components["schemas"]["WaitResult"] | components["schemas"]["MpnnTrainResult"] | components["schemas"]["MpnnPredictResult"] | components["schemas"]["OptimizeResult"] | components["schemas"]["SinglepointResult"] | components["schemas"]["DockingResult"] | components["schemas"]["PoseCheckResult"] | components["schemas"]["PocketsResult"] | components["schemas"]["ConformersResult"] | components["schemas"]["FrequenciesResult"] | components["schemas"]["ScanResult"] | components["schemas"]["PropertiesQmResult"] | components["schemas"]["RerankResult"] | components["schemas"]["PkaResult"] | components["schemas"]["TautomersResult"] | components["schemas"]["BdeResult"] | components["schemas"]["ReactivityResult"] | components["schemas"]["ReceptorPrepareResult"];
        /** @description All MolecularProperties (as POST /describe) of each molecule of a SMILES list or an uploaded molecule set */
        PropertiesJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "properties";
            payload: components["schemas"]["PropertiesPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description An SVG drawing (as POST /depict) of each molecule of a SMILES list or an uploaded molecule set */
        DepictJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "depict";
            payload: components["schemas"]["DepictPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Molecules of a library most similar to a query SMILES (Tanimoto on Morgan fingerprints, radius 2, 2048 bits), above a threshold, best top_k */
        SimilaritySearchJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "similarity_search";
            payload: components["schemas"]["SimilaritySearchPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Molecules of a library that contain a substructure given as SMARTS or SMILES, with the atoms of the first match */
        SubstructureSearchJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "substructure_search";
            payload: components["schemas"]["SubstructureSearchPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Butina clustering of a library on Morgan fingerprints (radius 2, 2048 bits) with a Tanimoto distance cutoff (default 0.35) */
        ClusterJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "cluster";
            payload: components["schemas"]["ClusterPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Keep the molecules whose properties satisfy an expression, e.g. "mw <= 500 and clogp < 5 and not pains" */
        FilterJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "filter";
            payload: components["schemas"]["FilterPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description One table row per molecule from the results of properties, pka, tautomers, bde and reactivity jobs on the same molecules (a workflow step: the profile template's table) */
        ProfileTableJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "profile_table";
            payload: components["schemas"]["ProfileTablePayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Sleeps for `seconds` (1..3600): a diagnostic job for probes and integration tests */
        WaitJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "wait";
            payload: components["schemas"]["WaitPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Train a directed message-passing neural network (D-MPNN, as chemprop) on your measurements and register it under model_name */
        MpnnTrainJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "mpnn_train";
            payload: components["schemas"]["MpnnTrainPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Predict a property with a public model or one of your MPNN models, for SMILES or an uploaded molecule set */
        MpnnPredictJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "mpnn_predict";
            payload: components["schemas"]["MpnnPredictPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Geometry optimisation with GFN2-xTB, GFN1-xTB, GFN-FF (xtb), PM7, PM6 (MOPAC) or DFT and HF with a basis set (Psi4, NWChem), in the gas phase or an implicit solvent */
        OptimizeJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "optimize";
            payload: components["schemas"]["OptimizePayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Energy, HOMO-LUMO gap, dipole and partial charges at the given geometry (xtb, MOPAC, or DFT and HF with Psi4 or NWChem) */
        SinglepointJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "singlepoint";
            payload: components["schemas"]["SinglepointPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description AutoDock Vina docking of ligands into a receptor (an uploaded PDB file or an RCSB PDB entry) within a box */
        DockingJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "docking";
            payload: components["schemas"]["DockingPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description PoseBusters-style checks of ligand poses in a receptor and their PLIP interactions, with a 2D interaction diagram per pose */
        PoseCheckJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "pose_check";
            payload: components["schemas"]["PoseCheckPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Pockets of a receptor (an uploaded PDB file or an RCSB PDB entry) with no ligand given: a LIGSITE grid search, best first, each with a Vina box */
        PocketsJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "pockets";
            payload: components["schemas"]["PocketsPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description 3D conformer ensemble of each structure: Open Babel's candidates optimised with GFN-FF (and GFN2-xTB), pruned by energy window and RMSD, Boltzmann-weighted */
        ConformersJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "conformers";
            payload: components["schemas"]["ConformersPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Harmonic frequencies, IR intensities and thermochemistry (ZPVE, H, S, G) of the optimised structure, with xtb or MOPAC */
        FrequenciesJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "frequencies";
            payload: components["schemas"]["FrequenciesPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Relaxed torsion scan with GFN2-xTB, GFN1-xTB or GFN-FF: the energy profile of a dihedral, each point optimised with the dihedral held */
        ScanJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "scan";
            payload: components["schemas"]["ScanPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Electronic properties at DFT or HF (Psi4, NWChem): energy, dipole, HOMO/LUMO and orbital energies, Mulliken and Löwdin charges, cube files of orbitals and density */
        PropertiesQmJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "properties_qm";
            payload: components["schemas"]["PropertiesQmPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description A conformer ensemble re-ranked at DFT: the lowest by xtb energy get a DFT single point (or optimisation), returned lowest first with relative energies and Boltzmann weights */
        RerankJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "rerank";
            payload: components["schemas"]["RerankPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description pKa values of the ionisable sites, and the charge state and microstates at a pH (GFN2-xTB in ALPB water, calibrated per site class) */
        PkaJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "pka";
            payload: components["schemas"]["PkaPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Tautomers enumerated by RDKit and ranked by GFN2-xTB free energy in a solvent (ALPB), with their populations */
        TautomersJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "tautomers";
            payload: components["schemas"]["TautomersPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Homolytic bond dissociation enthalpies at 298 K (X-H bonds by default, weakest first): GFN2-xTB geometries, GFN2 or B3LYP energies, calibrated */
        BdeJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "bde";
            payload: components["schemas"]["BdePayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description HOMO/LUMO, vertical IP and EA, global electrophilicity and condensed Fukui indices (f+, f-, f0 per atom) of the GFN2-xTB optimised structure, with a drawing of the top sites of attack */
        ReactivityJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "reactivity";
            payload: components["schemas"]["ReactivityPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Receptor preparation: waters and hetero groups removed, missing heavy atoms added (PDBFixer), protonation states at a pH (PDB2PQR with PROPKA) */
        ReceptorPrepareJobRequest: {
            job_name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "receptor_prepare";
            payload: components["schemas"]["ReceptorPreparePayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description All MolecularProperties (as POST /describe) of each molecule of a SMILES list or an uploaded molecule set */
        PropertiesJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "properties";
            payload: components["schemas"]["PropertiesPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description An SVG drawing (as POST /depict) of each molecule of a SMILES list or an uploaded molecule set */
        DepictJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "depict";
            payload: components["schemas"]["DepictPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Molecules of a library most similar to a query SMILES (Tanimoto on Morgan fingerprints, radius 2, 2048 bits), above a threshold, best top_k */
        SimilaritySearchJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "similarity_search";
            payload: components["schemas"]["SimilaritySearchPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Molecules of a library that contain a substructure given as SMARTS or SMILES, with the atoms of the first match */
        SubstructureSearchJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "substructure_search";
            payload: components["schemas"]["SubstructureSearchPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Butina clustering of a library on Morgan fingerprints (radius 2, 2048 bits) with a Tanimoto distance cutoff (default 0.35) */
        ClusterJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "cluster";
            payload: components["schemas"]["ClusterPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Keep the molecules whose properties satisfy an expression, e.g. "mw <= 500 and clogp < 5 and not pains" */
        FilterJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "filter";
            payload: components["schemas"]["FilterPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description One table row per molecule from the results of properties, pka, tautomers, bde and reactivity jobs on the same molecules (a workflow step: the profile template's table) */
        ProfileTableJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "profile_table";
            payload: components["schemas"]["ProfileTablePayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Sleeps for `seconds` (1..3600): a diagnostic job for probes and integration tests */
        WaitJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "wait";
            payload: components["schemas"]["WaitPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Train a directed message-passing neural network (D-MPNN, as chemprop) on your measurements and register it under model_name */
        MpnnTrainJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "mpnn_train";
            payload: components["schemas"]["MpnnTrainPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Predict a property with a public model or one of your MPNN models, for SMILES or an uploaded molecule set */
        MpnnPredictJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "mpnn_predict";
            payload: components["schemas"]["MpnnPredictPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Geometry optimisation with GFN2-xTB, GFN1-xTB, GFN-FF (xtb), PM7, PM6 (MOPAC) or DFT and HF with a basis set (Psi4, NWChem), in the gas phase or an implicit solvent */
        OptimizeJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "optimize";
            payload: components["schemas"]["OptimizePayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Energy, HOMO-LUMO gap, dipole and partial charges at the given geometry (xtb, MOPAC, or DFT and HF with Psi4 or NWChem) */
        SinglepointJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "singlepoint";
            payload: components["schemas"]["SinglepointPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description AutoDock Vina docking of ligands into a receptor (an uploaded PDB file or an RCSB PDB entry) within a box */
        DockingJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "docking";
            payload: components["schemas"]["DockingPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description PoseBusters-style checks of ligand poses in a receptor and their PLIP interactions, with a 2D interaction diagram per pose */
        PoseCheckJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "pose_check";
            payload: components["schemas"]["PoseCheckPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Pockets of a receptor (an uploaded PDB file or an RCSB PDB entry) with no ligand given: a LIGSITE grid search, best first, each with a Vina box */
        PocketsJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "pockets";
            payload: components["schemas"]["PocketsPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description 3D conformer ensemble of each structure: Open Babel's candidates optimised with GFN-FF (and GFN2-xTB), pruned by energy window and RMSD, Boltzmann-weighted */
        ConformersJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "conformers";
            payload: components["schemas"]["ConformersPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Harmonic frequencies, IR intensities and thermochemistry (ZPVE, H, S, G) of the optimised structure, with xtb or MOPAC */
        FrequenciesJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "frequencies";
            payload: components["schemas"]["FrequenciesPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Relaxed torsion scan with GFN2-xTB, GFN1-xTB or GFN-FF: the energy profile of a dihedral, each point optimised with the dihedral held */
        ScanJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "scan";
            payload: components["schemas"]["ScanPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Electronic properties at DFT or HF (Psi4, NWChem): energy, dipole, HOMO/LUMO and orbital energies, Mulliken and Löwdin charges, cube files of orbitals and density */
        PropertiesQmJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "properties_qm";
            payload: components["schemas"]["PropertiesQmPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description A conformer ensemble re-ranked at DFT: the lowest by xtb energy get a DFT single point (or optimisation), returned lowest first with relative energies and Boltzmann weights */
        RerankJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "rerank";
            payload: components["schemas"]["RerankPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description pKa values of the ionisable sites, and the charge state and microstates at a pH (GFN2-xTB in ALPB water, calibrated per site class) */
        PkaJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "pka";
            payload: components["schemas"]["PkaPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Tautomers enumerated by RDKit and ranked by GFN2-xTB free energy in a solvent (ALPB), with their populations */
        TautomersJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "tautomers";
            payload: components["schemas"]["TautomersPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Homolytic bond dissociation enthalpies at 298 K (X-H bonds by default, weakest first): GFN2-xTB geometries, GFN2 or B3LYP energies, calibrated */
        BdeJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "bde";
            payload: components["schemas"]["BdePayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description HOMO/LUMO, vertical IP and EA, global electrophilicity and condensed Fukui indices (f+, f-, f0 per atom) of the GFN2-xTB optimised structure, with a drawing of the top sites of attack */
        ReactivityJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "reactivity";
            payload: components["schemas"]["ReactivityPayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        /** @description Receptor preparation: waters and hetero groups removed, missing heavy atoms added (PDBFixer), protonation states at a pH (PDB2PQR with PROPKA) */
        ReceptorPrepareJobEstimateRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            job_type: "receptor_prepare";
            payload: components["schemas"]["ReceptorPreparePayload"];
            /**
             * @description default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)
             * @default default
             * @enum {string}
             */
            resource?: "default" | "cpu-4";
        };
        EngineInfo: {
            name: "xtb" | "mopac" | "obabel" | "vina" | "psi4" | "nwchem" | "rdkit" | "pdbfixer" | "pdb2pqr" | "plip";
            /** @description Whether a live compute worker of this server found it (the API answers 503 engine-unavailable for a job that needs it otherwise) */
            available: boolean;
            version: string | null;
            /** @description Where the first worker that has it found it */
            path: string | null;
            /** @description The job types that use it and this server's workers can run */
            job_types: string[];
            /** @description The methods it runs (GET /papers/cite names their papers) */
            methods: string[];
            /** @description What to install where it is missing: apt-get install <package> */
            debian_package: string;
            /** @description Live compute workers that found it */
            workers: number;
            summary: string;
        };
        EngineList: {
            engines: components["schemas"]["EngineInfo"][];
            /** @description Live compute workers of this server (serve processes with job slots and crucible worker processes) */
            workers: number;
        };
        CompoundItem: {
            /** @description The name as given */
            name: string;
            /** @default pubchem */
            source?: string;
            license: string;
            /**
             * @description found, not_found, invalid_query, structure_egress_not_allowed, upstream_error or timeout
             * @enum {string}
             */
            status: "found" | "not_found" | "invalid_query" | "structure_egress_not_allowed" | "upstream_error" | "timeout";
            /** @description PubChem CID of the best match */
            cid?: number | null;
            /** @description Further CIDs the name matches */
            other_cids?: number[] | null;
            smiles?: string | null;
            title?: string | null;
            /** @description The compound's PubChem page */
            url?: string | null;
            /** @description The CID as text (additive) */
            record_id?: string | null;
            /** @description Always null: PubChem reports no release (additive) */
            release?: string | null;
            /** @description Why, when status is upstream_error or timeout: DNS failure, connection refused, HTTP status, timeout after N s (additive) */
            detail?: string;
        };
        CompoundsLookupRequest: {
            /** @description Compound names, 1 to 20, each 1 to 100 characters. Only names are sent; a SMILES or InChI is a structure and is not sent. */
            names: string[];
        };
        BioactivityLookupRequest: {
            /**
             * @description ChEMBL operation
             * @enum {string}
             */
            operation: "molecule" | "target" | "molecule_activities" | "target_activities" | "similarity" | "substructure";
            /** @description ChEMBL IDs or names (at most 100 characters); SMILES for similarity and substructure (at most 500) */
            queries: string[];
            /** @description Rows per query (1 to 1000, default 10) */
            limit?: number | null;
            /** @description Similarity cut-off in percent (similarity only) (40 to 100, default 70) */
            threshold?: number | null;
        };
        TargetsLookupRequest: {
            /**
             * @description Open Targets operation
             * @enum {string}
             */
            operation: "target_associations" | "disease_associations" | "target_drugs" | "disease_drugs";
            /** @description Gene symbols or Ensembl gene IDs (target_*), disease IDs or names (disease_*) */
            queries: string[];
            /** @description Rows per query (1 to 100, default 10) */
            limit?: number | null;
        };
        ProteinsLookupRequest: {
            /**
             * @description UniProt operation
             * @enum {string}
             */
            operation: "entry" | "search";
            /** @description UniProt accessions (entry) or gene/protein names (search) */
            queries: string[];
            /** @description search only: organism name or NCBI taxon ID */
            organism?: string | null;
        };
        StructuresLookupRequest: {
            /**
             * @description RCSB PDB operation
             * @enum {string}
             */
            operation: "entry" | "by_uniprot" | "search";
            /** @description PDB IDs (entry), UniProt accessions (by_uniprot) or free text (search) */
            queries: string[];
            /** @description Entries per query (1 to 100, default 10) */
            limit?: number | null;
        };
        PropertiesLookupRequest: {
            /**
             * @description Must be experimental
             * @enum {string}
             */
            operation: "experimental";
            /** @description PubChem CIDs or compound names */
            queries: string[];
            /** @description Properties to return (default: boiling_point, melting_point, density, vapor_pressure, heat_of_vaporization, viscosity, surface_tension) */
            properties?: ("boiling_point" | "melting_point" | "density" | "vapor_pressure" | "heat_of_vaporization" | "viscosity" | "surface_tension" | "other" | "flash_point" | "autoignition_temperature" | "solubility" | "logp" | "vapor_density" | "refractive_index" | "heat_of_combustion" | "dissociation_constants" | "henrys_law_constant" | "decomposition")[] | null;
            /** @description Values per property (1 to 50, default 3) */
            limit?: number | null;
        };
        CompoundsLookupResponse: {
            /** @description The source, its licence and the citation it asks for */
            attribution: string;
            /** @description One item per name, in input order */
            compounds: components["schemas"]["CompoundItem"][];
        };
        BioactivityLookupResponse: {
            /** @description The source, its licence and the citation it asks for */
            attribution: string;
            /** @description One item per query, in query order */
            results: ({
                /** @description The source behind the endpoint (e.g. chembl) */
                source: string;
                /** @description The source's licence terms */
                license: string;
                /** @enum {string} */
                operation: "molecule";
                /**
                 * @description found, not_found, invalid_query, structure_egress_not_allowed, upstream_error or timeout
                 * @enum {string}
                 */
                status: "found" | "not_found" | "invalid_query" | "structure_egress_not_allowed" | "upstream_error" | "timeout";
                /** @description The query as given */
                query?: string | null;
                /** @description The record's ID at the source (the best hit for searches) */
                record_id?: string | null;
                title?: string | null;
                /** @description The record's public page */
                url?: string | null;
                /** @description Source data release, where the source reports one */
                release?: string | null;
                /** @description The record for operation `molecule`; null unless status is found */
                data?: {
                    total_count: number;
                    molecules: {
                        molecule_chembl_id: string;
                        pref_name: string | null;
                        molecule_type: string | null;
                        max_phase: number | null;
                        first_approval: number | null;
                        canonical_smiles: string | null;
                        standard_inchi_key: string | null;
                        molecular_formula: string | null;
                        molecular_weight: number | null;
                        alogp: number | null;
                        similarity?: number | null;
                    }[];
                } | null;
                /** @description Why, when status is upstream_error or timeout: DNS failure, connection refused, HTTP status, timeout after N s */
                detail?: string;
            } | {
                /** @description The source behind the endpoint (e.g. chembl) */
                source: string;
                /** @description The source's licence terms */
                license: string;
                /** @enum {string} */
                operation: "target";
                /**
                 * @description found, not_found, invalid_query, structure_egress_not_allowed, upstream_error or timeout
                 * @enum {string}
                 */
                status: "found" | "not_found" | "invalid_query" | "structure_egress_not_allowed" | "upstream_error" | "timeout";
                /** @description The query as given */
                query?: string | null;
                /** @description The record's ID at the source (the best hit for searches) */
                record_id?: string | null;
                title?: string | null;
                /** @description The record's public page */
                url?: string | null;
                /** @description Source data release, where the source reports one */
                release?: string | null;
                /** @description The record for operation `target`; null unless status is found */
                data?: {
                    total_count: number;
                    targets: {
                        target_chembl_id: string;
                        pref_name: string | null;
                        target_type: string | null;
                        organism: string | null;
                        tax_id: number | null;
                        accessions: string[];
                        gene_symbols: string[];
                    }[];
                } | null;
                /** @description Why, when status is upstream_error or timeout: DNS failure, connection refused, HTTP status, timeout after N s */
                detail?: string;
            } | {
                /** @description The source behind the endpoint (e.g. chembl) */
                source: string;
                /** @description The source's licence terms */
                license: string;
                /** @enum {string} */
                operation: "molecule_activities";
                /**
                 * @description found, not_found, invalid_query, structure_egress_not_allowed, upstream_error or timeout
                 * @enum {string}
                 */
                status: "found" | "not_found" | "invalid_query" | "structure_egress_not_allowed" | "upstream_error" | "timeout";
                /** @description The query as given */
                query?: string | null;
                /** @description The record's ID at the source (the best hit for searches) */
                record_id?: string | null;
                title?: string | null;
                /** @description The record's public page */
                url?: string | null;
                /** @description Source data release, where the source reports one */
                release?: string | null;
                /** @description The record for operation `molecule_activities`; null unless status is found */
                data?: {
                    molecule_chembl_id: string;
                    /** @description How a symbol or name was resolved to an ID (null when an ID was given) */
                    resolution: {
                        query: string;
                        matched: string;
                        entity: string;
                    } | null;
                    total_count: number;
                    activities: {
                        activity_id: number | null;
                        molecule_chembl_id: string | null;
                        molecule_pref_name: string | null;
                        target_chembl_id: string | null;
                        target_pref_name: string | null;
                        target_organism: string | null;
                        assay_chembl_id: string | null;
                        assay_type: string | null;
                        assay_description: string | null;
                        standard_type: string | null;
                        standard_relation: string | null;
                        standard_value: number | null;
                        standard_units: string | null;
                        pchembl_value: number | null;
                        document_chembl_id: string | null;
                        document_year: number | null;
                    }[];
                } | null;
                /** @description Why, when status is upstream_error or timeout: DNS failure, connection refused, HTTP status, timeout after N s */
                detail?: string;
            } | {
                /** @description The source behind the endpoint (e.g. chembl) */
                source: string;
                /** @description The source's licence terms */
                license: string;
                /** @enum {string} */
                operation: "target_activities";
                /**
                 * @description found, not_found, invalid_query, structure_egress_not_allowed, upstream_error or timeout
                 * @enum {string}
                 */
                status: "found" | "not_found" | "invalid_query" | "structure_egress_not_allowed" | "upstream_error" | "timeout";
                /** @description The query as given */
                query?: string | null;
                /** @description The record's ID at the source (the best hit for searches) */
                record_id?: string | null;
                title?: string | null;
                /** @description The record's public page */
                url?: string | null;
                /** @description Source data release, where the source reports one */
                release?: string | null;
                /** @description The record for operation `target_activities`; null unless status is found */
                data?: {
                    target_chembl_id: string;
                    /** @description How a symbol or name was resolved to an ID (null when an ID was given) */
                    resolution: {
                        query: string;
                        matched: string;
                        entity: string;
                    } | null;
                    total_count: number;
                    activities: {
                        activity_id: number | null;
                        molecule_chembl_id: string | null;
                        molecule_pref_name: string | null;
                        target_chembl_id: string | null;
                        target_pref_name: string | null;
                        target_organism: string | null;
                        assay_chembl_id: string | null;
                        assay_type: string | null;
                        assay_description: string | null;
                        standard_type: string | null;
                        standard_relation: string | null;
                        standard_value: number | null;
                        standard_units: string | null;
                        pchembl_value: number | null;
                        document_chembl_id: string | null;
                        document_year: number | null;
                    }[];
                } | null;
                /** @description Why, when status is upstream_error or timeout: DNS failure, connection refused, HTTP status, timeout after N s */
                detail?: string;
            } | {
                /** @description The source behind the endpoint (e.g. chembl) */
                source: string;
                /** @description The source's licence terms */
                license: string;
                /** @enum {string} */
                operation: "similarity";
                /**
                 * @description found, not_found, invalid_query, structure_egress_not_allowed, upstream_error or timeout
                 * @enum {string}
                 */
                status: "found" | "not_found" | "invalid_query" | "structure_egress_not_allowed" | "upstream_error" | "timeout";
                /** @description The query as given */
                query?: string | null;
                /** @description The record's ID at the source (the best hit for searches) */
                record_id?: string | null;
                title?: string | null;
                /** @description The record's public page */
                url?: string | null;
                /** @description Source data release, where the source reports one */
                release?: string | null;
                /** @description The record for operation `similarity`; null unless status is found */
                data?: {
                    threshold: number;
                    total_count: number;
                    molecules: {
                        molecule_chembl_id: string;
                        pref_name: string | null;
                        molecule_type: string | null;
                        max_phase: number | null;
                        first_approval: number | null;
                        canonical_smiles: string | null;
                        standard_inchi_key: string | null;
                        molecular_formula: string | null;
                        molecular_weight: number | null;
                        alogp: number | null;
                        similarity?: number | null;
                    }[];
                } | null;
                /** @description Why, when status is upstream_error or timeout: DNS failure, connection refused, HTTP status, timeout after N s */
                detail?: string;
            } | {
                /** @description The source behind the endpoint (e.g. chembl) */
                source: string;
                /** @description The source's licence terms */
                license: string;
                /** @enum {string} */
                operation: "substructure";
                /**
                 * @description found, not_found, invalid_query, structure_egress_not_allowed, upstream_error or timeout
                 * @enum {string}
                 */
                status: "found" | "not_found" | "invalid_query" | "structure_egress_not_allowed" | "upstream_error" | "timeout";
                /** @description The query as given */
                query?: string | null;
                /** @description The record's ID at the source (the best hit for searches) */
                record_id?: string | null;
                title?: string | null;
                /** @description The record's public page */
                url?: string | null;
                /** @description Source data release, where the source reports one */
                release?: string | null;
                /** @description The record for operation `substructure`; null unless status is found */
                data?: {
                    total_count: number;
                    molecules: {
                        molecule_chembl_id: string;
                        pref_name: string | null;
                        molecule_type: string | null;
                        max_phase: number | null;
                        first_approval: number | null;
                        canonical_smiles: string | null;
                        standard_inchi_key: string | null;
                        molecular_formula: string | null;
                        molecular_weight: number | null;
                        alogp: number | null;
                        similarity?: number | null;
                    }[];
                } | null;
                /** @description Why, when status is upstream_error or timeout: DNS failure, connection refused, HTTP status, timeout after N s */
                detail?: string;
            })[];
        };
        TargetsLookupResponse: {
            /** @description The source, its licence and the citation it asks for */
            attribution: string;
            /** @description One item per query, in query order */
            results: ({
                /** @description The source behind the endpoint (e.g. chembl) */
                source: string;
                /** @description The source's licence terms */
                license: string;
                /** @enum {string} */
                operation: "target_associations";
                /**
                 * @description found, not_found, invalid_query, structure_egress_not_allowed, upstream_error or timeout
                 * @enum {string}
                 */
                status: "found" | "not_found" | "invalid_query" | "structure_egress_not_allowed" | "upstream_error" | "timeout";
                /** @description The query as given */
                query?: string | null;
                /** @description The record's ID at the source (the best hit for searches) */
                record_id?: string | null;
                title?: string | null;
                /** @description The record's public page */
                url?: string | null;
                /** @description Source data release, where the source reports one */
                release?: string | null;
                /** @description The record for operation `target_associations`; null unless status is found */
                data?: {
                    target: {
                        id: string;
                        approved_symbol: string | null;
                        approved_name: string | null;
                    };
                    /** @description How a symbol or name was resolved to an ID (null when an ID was given) */
                    resolution: {
                        query: string;
                        matched: string;
                        entity: string;
                    } | null;
                    total_count: number;
                    associations: {
                        disease: {
                            id: string;
                            name: string | null;
                        };
                        score: number;
                        /** @description Association score per data type (genetic_association, known_drug, literature, ...) */
                        datatype_scores: {
                            [key: string]: number;
                        };
                    }[];
                } | null;
                /** @description Why, when status is upstream_error or timeout: DNS failure, connection refused, HTTP status, timeout after N s */
                detail?: string;
            } | {
                /** @description The source behind the endpoint (e.g. chembl) */
                source: string;
                /** @description The source's licence terms */
                license: string;
                /** @enum {string} */
                operation: "disease_associations";
                /**
                 * @description found, not_found, invalid_query, structure_egress_not_allowed, upstream_error or timeout
                 * @enum {string}
                 */
                status: "found" | "not_found" | "invalid_query" | "structure_egress_not_allowed" | "upstream_error" | "timeout";
                /** @description The query as given */
                query?: string | null;
                /** @description The record's ID at the source (the best hit for searches) */
                record_id?: string | null;
                title?: string | null;
                /** @description The record's public page */
                url?: string | null;
                /** @description Source data release, where the source reports one */
                release?: string | null;
                /** @description The record for operation `disease_associations`; null unless status is found */
                data?: {
                    disease: {
                        id: string;
                        name: string | null;
                    };
                    /** @description How a symbol or name was resolved to an ID (null when an ID was given) */
                    resolution: {
                        query: string;
                        matched: string;
                        entity: string;
                    } | null;
                    total_count: number;
                    associations: {
                        target: {
                            id: string;
                            approved_symbol: string | null;
                            approved_name: string | null;
                        };
                        score: number;
                        /** @description Association score per data type (genetic_association, known_drug, literature, ...) */
                        datatype_scores: {
                            [key: string]: number;
                        };
                    }[];
                } | null;
                /** @description Why, when status is upstream_error or timeout: DNS failure, connection refused, HTTP status, timeout after N s */
                detail?: string;
            } | {
                /** @description The source behind the endpoint (e.g. chembl) */
                source: string;
                /** @description The source's licence terms */
                license: string;
                /** @enum {string} */
                operation: "target_drugs";
                /**
                 * @description found, not_found, invalid_query, structure_egress_not_allowed, upstream_error or timeout
                 * @enum {string}
                 */
                status: "found" | "not_found" | "invalid_query" | "structure_egress_not_allowed" | "upstream_error" | "timeout";
                /** @description The query as given */
                query?: string | null;
                /** @description The record's ID at the source (the best hit for searches) */
                record_id?: string | null;
                title?: string | null;
                /** @description The record's public page */
                url?: string | null;
                /** @description Source data release, where the source reports one */
                release?: string | null;
                /** @description The record for operation `target_drugs`; null unless status is found */
                data?: {
                    target: {
                        id: string;
                        approved_symbol: string | null;
                        approved_name: string | null;
                    };
                    /** @description How a symbol or name was resolved to an ID (null when an ID was given) */
                    resolution: {
                        query: string;
                        matched: string;
                        entity: string;
                    } | null;
                    total_count: number;
                    drugs: {
                        drug_id: string;
                        drug_name: string | null;
                        drug_type: string | null;
                        max_clinical_stage: string | null;
                        diseases?: {
                            id: string;
                            name: string | null;
                        }[];
                        mechanisms?: {
                            mechanism_of_action: string | null;
                            action_type: string | null;
                            target_symbols: string[];
                        }[];
                    }[];
                } | null;
                /** @description Why, when status is upstream_error or timeout: DNS failure, connection refused, HTTP status, timeout after N s */
                detail?: string;
            } | {
                /** @description The source behind the endpoint (e.g. chembl) */
                source: string;
                /** @description The source's licence terms */
                license: string;
                /** @enum {string} */
                operation: "disease_drugs";
                /**
                 * @description found, not_found, invalid_query, structure_egress_not_allowed, upstream_error or timeout
                 * @enum {string}
                 */
                status: "found" | "not_found" | "invalid_query" | "structure_egress_not_allowed" | "upstream_error" | "timeout";
                /** @description The query as given */
                query?: string | null;
                /** @description The record's ID at the source (the best hit for searches) */
                record_id?: string | null;
                title?: string | null;
                /** @description The record's public page */
                url?: string | null;
                /** @description Source data release, where the source reports one */
                release?: string | null;
                /** @description The record for operation `disease_drugs`; null unless status is found */
                data?: {
                    disease: {
                        id: string;
                        name: string | null;
                    };
                    /** @description How a symbol or name was resolved to an ID (null when an ID was given) */
                    resolution: {
                        query: string;
                        matched: string;
                        entity: string;
                    } | null;
                    total_count: number;
                    drugs: {
                        drug_id: string;
                        drug_name: string | null;
                        drug_type: string | null;
                        max_clinical_stage: string | null;
                        diseases?: {
                            id: string;
                            name: string | null;
                        }[];
                        mechanisms?: {
                            mechanism_of_action: string | null;
                            action_type: string | null;
                            target_symbols: string[];
                        }[];
                    }[];
                } | null;
                /** @description Why, when status is upstream_error or timeout: DNS failure, connection refused, HTTP status, timeout after N s */
                detail?: string;
            })[];
        };
        ProteinsLookupResponse: {
            /** @description The source, its licence and the citation it asks for */
            attribution: string;
            /** @description One item per query, in query order */
            results: ({
                /** @description The source behind the endpoint (e.g. chembl) */
                source: string;
                /** @description The source's licence terms */
                license: string;
                /** @enum {string} */
                operation: "entry";
                /**
                 * @description found, not_found, invalid_query, structure_egress_not_allowed, upstream_error or timeout
                 * @enum {string}
                 */
                status: "found" | "not_found" | "invalid_query" | "structure_egress_not_allowed" | "upstream_error" | "timeout";
                /** @description The query as given */
                query?: string | null;
                /** @description The record's ID at the source (the best hit for searches) */
                record_id?: string | null;
                title?: string | null;
                /** @description The record's public page */
                url?: string | null;
                /** @description Source data release, where the source reports one */
                release?: string | null;
                /** @description The record for operation `entry`; null unless status is found */
                data?: {
                    accession: string;
                    uniprot_id: string | null;
                    entry_type: string | null;
                    reviewed: boolean;
                    protein_name: string | null;
                    ec_numbers: string[];
                    gene_names: string[];
                    organism: {
                        scientific_name: string | null;
                        common_name: string | null;
                        taxon_id: number | null;
                    } | null;
                    length: number | null;
                    mass: number | null;
                    sequence: string | null;
                    function: string | null;
                    pdb_ids: string[];
                    last_annotation_update: string | null;
                } | null;
                /** @description Why, when status is upstream_error or timeout: DNS failure, connection refused, HTTP status, timeout after N s */
                detail?: string;
            } | {
                /** @description The source behind the endpoint (e.g. chembl) */
                source: string;
                /** @description The source's licence terms */
                license: string;
                /** @enum {string} */
                operation: "search";
                /**
                 * @description found, not_found, invalid_query, structure_egress_not_allowed, upstream_error or timeout
                 * @enum {string}
                 */
                status: "found" | "not_found" | "invalid_query" | "structure_egress_not_allowed" | "upstream_error" | "timeout";
                /** @description The query as given */
                query?: string | null;
                /** @description The record's ID at the source (the best hit for searches) */
                record_id?: string | null;
                title?: string | null;
                /** @description The record's public page */
                url?: string | null;
                /** @description Source data release, where the source reports one */
                release?: string | null;
                /** @description The record for operation `search`; null unless status is found */
                data?: {
                    organism: string | null;
                    total_count: number | null;
                    results: {
                        accession: string;
                        uniprot_id: string | null;
                        reviewed: boolean;
                        protein_name: string | null;
                        gene_names: string[];
                        organism: {
                            scientific_name: string | null;
                            common_name: string | null;
                            taxon_id: number | null;
                        } | null;
                        length: number | null;
                    }[];
                } | null;
                /** @description Why, when status is upstream_error or timeout: DNS failure, connection refused, HTTP status, timeout after N s */
                detail?: string;
            })[];
        };
        StructuresLookupResponse: {
            /** @description The source, its licence and the citation it asks for */
            attribution: string;
            /** @description One item per query, in query order */
            results: ({
                /** @description The source behind the endpoint (e.g. chembl) */
                source: string;
                /** @description The source's licence terms */
                license: string;
                /** @enum {string} */
                operation: "entry";
                /**
                 * @description found, not_found, invalid_query, structure_egress_not_allowed, upstream_error or timeout
                 * @enum {string}
                 */
                status: "found" | "not_found" | "invalid_query" | "structure_egress_not_allowed" | "upstream_error" | "timeout";
                /** @description The query as given */
                query?: string | null;
                /** @description The record's ID at the source (the best hit for searches) */
                record_id?: string | null;
                title?: string | null;
                /** @description The record's public page */
                url?: string | null;
                /** @description Source data release, where the source reports one */
                release?: string | null;
                /** @description The record for operation `entry`; null unless status is found */
                data?: {
                    pdb_id: string;
                    title: string | null;
                    methods: string[];
                    resolution: number | null;
                    keywords: string | null;
                    deposit_date: string | null;
                    release_date: string | null;
                    polymer_entity_count: number | null;
                    molecular_weight: number | null;
                    citation: {
                        title: string | null;
                        journal: string | null;
                        year: number | null;
                        doi: string | null;
                        pubmed_id: number | null;
                    } | null;
                } | null;
                /** @description Why, when status is upstream_error or timeout: DNS failure, connection refused, HTTP status, timeout after N s */
                detail?: string;
            } | {
                /** @description The source behind the endpoint (e.g. chembl) */
                source: string;
                /** @description The source's licence terms */
                license: string;
                /** @enum {string} */
                operation: "by_uniprot";
                /**
                 * @description found, not_found, invalid_query, structure_egress_not_allowed, upstream_error or timeout
                 * @enum {string}
                 */
                status: "found" | "not_found" | "invalid_query" | "structure_egress_not_allowed" | "upstream_error" | "timeout";
                /** @description The query as given */
                query?: string | null;
                /** @description The record's ID at the source (the best hit for searches) */
                record_id?: string | null;
                title?: string | null;
                /** @description The record's public page */
                url?: string | null;
                /** @description Source data release, where the source reports one */
                release?: string | null;
                /** @description The record for operation `by_uniprot`; null unless status is found */
                data?: {
                    total_count: number;
                    entries: {
                        pdb_id: string;
                        score: number | null;
                        title: string | null;
                        methods: string[];
                        resolution: number | null;
                    }[];
                } | null;
                /** @description Why, when status is upstream_error or timeout: DNS failure, connection refused, HTTP status, timeout after N s */
                detail?: string;
            } | {
                /** @description The source behind the endpoint (e.g. chembl) */
                source: string;
                /** @description The source's licence terms */
                license: string;
                /** @enum {string} */
                operation: "search";
                /**
                 * @description found, not_found, invalid_query, structure_egress_not_allowed, upstream_error or timeout
                 * @enum {string}
                 */
                status: "found" | "not_found" | "invalid_query" | "structure_egress_not_allowed" | "upstream_error" | "timeout";
                /** @description The query as given */
                query?: string | null;
                /** @description The record's ID at the source (the best hit for searches) */
                record_id?: string | null;
                title?: string | null;
                /** @description The record's public page */
                url?: string | null;
                /** @description Source data release, where the source reports one */
                release?: string | null;
                /** @description The record for operation `search`; null unless status is found */
                data?: {
                    total_count: number;
                    entries: {
                        pdb_id: string;
                        score: number | null;
                        title: string | null;
                        methods: string[];
                        resolution: number | null;
                    }[];
                } | null;
                /** @description Why, when status is upstream_error or timeout: DNS failure, connection refused, HTTP status, timeout after N s */
                detail?: string;
            })[];
        };
        PropertiesLookupResponse: {
            /** @description The source, its licence and the citation it asks for */
            attribution: string;
            /** @description One item per query, in query order */
            results: {
                /** @description The source behind the endpoint (e.g. chembl) */
                source: string;
                /** @description The source's licence terms */
                license: string;
                /** @enum {string} */
                operation: "experimental";
                /**
                 * @description found, not_found, invalid_query, structure_egress_not_allowed, upstream_error or timeout
                 * @enum {string}
                 */
                status: "found" | "not_found" | "invalid_query" | "structure_egress_not_allowed" | "upstream_error" | "timeout";
                /** @description The query as given */
                query?: string | null;
                /** @description The record's ID at the source (the best hit for searches) */
                record_id?: string | null;
                title?: string | null;
                /** @description The record's public page */
                url?: string | null;
                /** @description Source data release, where the source reports one */
                release?: string | null;
                /** @description The record for operation `experimental`; null unless status is found */
                data?: {
                    cid: number;
                    title: string | null;
                    /** @description Requested property name -> up to `limit` values */
                    properties: {
                        [key: string]: {
                            value: string;
                            number?: number | null;
                            unit?: string | null;
                            /** @description The PUG-View heading the value was found under (for `other`: e.g. "Critical Temperature & Pressure") */
                            heading: string;
                            reference: {
                                source_name: string | null;
                                source_id: string | null;
                                name: string | null;
                                url: string | null;
                                license: string;
                                license_url: string | null;
                                license_note: string | null;
                                citation: string | null;
                            };
                        }[];
                    };
                    /** @description Values dropped because their depositor has no allowed licence */
                    excluded: number;
                } | null;
                /** @description Why, when status is upstream_error or timeout: DNS failure, connection refused, HTTP status, timeout after N s */
                detail?: string;
            }[];
        };
        PaperAuthor: {
            /** @description Family name, or the name of a consortium */
            family: string;
            /** @description Given names or initials; empty for a consortium */
            given: string;
        };
        Paper: {
            /** @description Stable identifier, e.g. wildman-crippen-1999 */
            id: string;
            type: "article" | "inproceedings" | "software";
            title: string;
            /** @description All authors, in order */
            authors: components["schemas"]["PaperAuthor"][];
            /** @description Year of publication (null for software cited as a whole) */
            year: number | null;
            /** @description Journal, proceedings or publisher */
            venue: string;
            volume: string | null;
            issue: string | null;
            pages: string | null;
            doi: string | null;
            url: string;
            topics: string[];
            methods: string[];
        };
        PaperDetail: {
            /** @description Stable identifier, e.g. wildman-crippen-1999 */
            id: string;
            type: "article" | "inproceedings" | "software";
            title: string;
            /** @description All authors, in order */
            authors: components["schemas"]["PaperAuthor"][];
            /** @description Year of publication (null for software cited as a whole) */
            year: number | null;
            /** @description Journal, proceedings or publisher */
            venue: string;
            volume: string | null;
            issue: string | null;
            pages: string | null;
            doi: string | null;
            url: string;
            topics: string[];
            methods: string[];
            /** @description Formatted reference (APA) */
            citation: string;
            /** @description BibTeX entry */
            bibtex: string;
            /** @description RIS record */
            ris: string;
        };
        PaperList: {
            items: components["schemas"]["Paper"][];
            total: number;
            limit: number;
            offset: number;
        };
        CiteResponse: {
            /** @description The job asked about */
            process_id?: string;
            /** @description The workflow run asked about */
            workflow_run_id?: string;
            /** @description What ran: the job's type and the job types of the run's steps */
            job_types: string[];
            /** @description The public models predicted with (public/<id>): the papers of the data sets they were trained on are among the items */
            models?: string[];
            /** @description The methods those ran, which the papers below describe */
            methods: string[];
            items: components["schemas"]["PaperDetail"][];
            /** @description Every entry above in one BibTeX file */
            bibtex: string;
        };
        UsageResponse: {
            period: {
                /**
                 * Format: date-time
                 * @description First instant of the calendar month (UTC)
                 */
                start: string;
                /**
                 * Format: date-time
                 * @description First instant of the next month
                 */
                end: string;
                /**
                 * Format: date-time
                 * @description When the monthly allowance starts again (= end)
                 */
                resets_at: string;
            };
            tier: number;
            tier_name: string;
            /** @description Utility and inference calls this month (a synchronous call counts 1, an asynchronous request ceil(molecules / 100)) */
            calls: {
                utilities: number;
                inference: number;
                total: number;
                /** @description Utility and inference calls a month; null: unlimited */
                allowance: number | null;
                /** @description null: unlimited */
                remaining: number | null;
            };
            all_time: {
                utilities: number;
                inference: number;
                total: number;
            };
            /** @description As GET /artifacts/usage */
            storage: {
                used_bytes: number;
                quota_bytes: number;
                artifact_count: number;
            };
            /** @description API keys, as GET /auth/api-keys */
            keys: {
                used: number;
                limit: number;
            };
            /** @description Standalone jobs submitted this month and what jobs were charged this month (workflow steps count under workflow_runs) */
            jobs: {
                count: number;
                charged_usd: number;
            };
            /** @description Workflow runs started this month and what their steps were charged this month */
            workflow_runs: {
                count: number;
                charged_usd: number;
            };
            /** @description Assistant turns started this month and what turns were charged this month */
            assistant_turns: {
                count: number;
                charged_usd: number;
            };
        };
        UtilityConvertInput: {
            /** @description The molecules, in the input format (SMILES, molblocks); results come back in this order. Give this or input_artifact_id */
            molecules?: string[];
            /** @description An uploaded molecule set (SMILES or SDF) instead of `molecules` */
            input_artifact_id?: string;
            /** @description The artifact's port holding the molecules (default: its only or first molecule port) */
            port?: string;
            /**
             * @description How to read each molecule: auto (a molblock when it has an "M  END" line, InChI when it starts with "InChI=", else SMILES), smiles, molblock or inchi
             * @default auto
             * @enum {string}
             */
            input_format?: "auto" | "smiles" | "molblock" | "inchi";
            /**
             * @description What to write for each molecule, any of: smiles, cxsmiles, kekule_smiles, molblock, molblock_v3000, inchi, inchikey, formula, json (default smiles, inchi, inchikey)
             * @default [
             *       "smiles",
             *       "inchi",
             *       "inchikey"
             *     ]
             */
            outputs?: ("smiles" | "cxsmiles" | "kekule_smiles" | "molblock" | "molblock_v3000" | "inchi" | "inchikey" | "formula" | "json")[];
        };
        UtilityFingerprintsInput: {
            /** @description The molecules, in the input format (SMILES, molblocks); results come back in this order. Give this or input_artifact_id */
            molecules?: string[];
            /** @description An uploaded molecule set (SMILES or SDF) instead of `molecules` */
            input_artifact_id?: string;
            /** @description The artifact's port holding the molecules (default: its only or first molecule port) */
            port?: string;
            /**
             * @description How to read each molecule: auto (a molblock when it has an "M  END" line, InChI when it starts with "InChI=", else SMILES), smiles, molblock or inchi
             * @default auto
             * @enum {string}
             */
            input_format?: "auto" | "smiles" | "molblock" | "inchi";
            /**
             * @description Fingerprint: morgan, rdkit (paths 1..7), atom_pair, topological_torsion, maccs (167 keys) or pattern
             * @default morgan
             * @enum {string}
             */
            type?: "morgan" | "rdkit" | "atom_pair" | "topological_torsion" | "maccs" | "pattern";
            /**
             * @description Morgan radius (0..6, default 2: ECFP4-like)
             * @default 2
             */
            radius?: number;
            /**
             * @description Bits (64..16384, default 2048; MACCS keys always have 167)
             * @default 2048
             */
            n_bits?: number;
            /**
             * @description Morgan with feature invariants (FCFP); not available in this RDKit build: true is a 422 (docs/utilities.md)
             * @default false
             */
            features?: boolean;
            /**
             * @description bits: the on-bit indices; hex or base64: the packed bit vector, bit i in byte i/8, least significant bit first (the FPS convention)
             * @default bits
             * @enum {string}
             */
            format?: "bits" | "hex" | "base64";
        };
        UtilitySimilarityInput: {
            /** @description Query molecules */
            queries: string[];
            /** @description The library searched; give this or library_artifact_id */
            library?: string[];
            /** @description An uploaded molecule set as the library */
            library_artifact_id?: string;
            /** @description The artifact's port holding the molecules (default: its only or first molecule port) */
            port?: string;
            /**
             * @description How to read each molecule: auto (a molblock when it has an "M  END" line, InChI when it starts with "InChI=", else SMILES), smiles, molblock or inchi
             * @default auto
             * @enum {string}
             */
            input_format?: "auto" | "smiles" | "molblock" | "inchi";
            /**
             * @description Fingerprint: morgan, rdkit (paths 1..7), atom_pair, topological_torsion, maccs (167 keys) or pattern
             * @default morgan
             * @enum {string}
             */
            type?: "morgan" | "rdkit" | "atom_pair" | "topological_torsion" | "maccs" | "pattern";
            /**
             * @description Morgan radius (0..6, default 2: ECFP4-like)
             * @default 2
             */
            radius?: number;
            /**
             * @description Bits (64..16384, default 2048; MACCS keys always have 167)
             * @default 2048
             */
            n_bits?: number;
            /**
             * @description Morgan with feature invariants (FCFP); not available in this RDKit build: true is a 422 (docs/utilities.md)
             * @default false
             */
            features?: boolean;
            /**
             * @description Similarity of two bit vectors, as RDKit DataStructs
             * @default tanimoto
             * @enum {string}
             */
            metric?: "tanimoto" | "dice" | "cosine";
            /**
             * @description Smallest score of a hit (0..1, default 0)
             * @default 0
             */
            threshold?: number;
            /**
             * @description Most hits per query, best first (1..1000, default 10)
             * @default 10
             */
            top_k?: number;
        };
        UtilitySubstructureInput: {
            /** @description The molecules, in the input format (SMILES, molblocks); results come back in this order. Give this or input_artifact_id */
            molecules?: string[];
            /** @description An uploaded molecule set (SMILES or SDF) instead of `molecules` */
            input_artifact_id?: string;
            /** @description The artifact's port holding the molecules (default: its only or first molecule port) */
            port?: string;
            /**
             * @description How to read each molecule: auto (a molblock when it has an "M  END" line, InChI when it starts with "InChI=", else SMILES), smiles, molblock or inchi
             * @default auto
             * @enum {string}
             */
            input_format?: "auto" | "smiles" | "molblock" | "inchi";
            /** @description The substructure, as SMARTS or SMILES */
            query: string;
            /**
             * @description auto reads SMARTS first, then SMILES
             * @default auto
             * @enum {string}
             */
            query_format?: "auto" | "smarts" | "smiles";
            /**
             * @description Stereo must match too
             * @default false
             */
            use_chirality?: boolean;
            /**
             * @description Most matches listed per molecule (RDKit maxMatches, default 1000)
             * @default 1000
             */
            max_matches?: number;
            /**
             * @description Add a 300x220 SVG of each matching molecule with the matches highlighted, drawn as POST /depict draws it
             * @default false
             */
            svg?: boolean;
        };
        UtilityMcsInput: {
            /** @description 2 to 50 molecules */
            molecules: string[];
            /**
             * @description How to read each molecule: auto (a molblock when it has an "M  END" line, InChI when it starts with "InChI=", else SMILES), smiles, molblock or inchi
             * @default auto
             * @enum {string}
             */
            input_format?: "auto" | "smiles" | "molblock" | "inchi";
            /**
             * @description Time allowed (1..10 s, default 2); when it runs out the best so far comes back with timed_out true
             * @default 2
             */
            timeout_sec?: number;
            /**
             * @default elements
             * @enum {string}
             */
            atom_compare?: "elements" | "any" | "isotopes";
            /**
             * @default order
             * @enum {string}
             */
            bond_compare?: "order" | "any" | "order_exact";
            /** @default false */
            ring_matches_ring_only?: boolean;
            /** @default false */
            complete_rings_only?: boolean;
            /** @default false */
            match_valences?: boolean;
            /** @default false */
            match_chiral_tag?: boolean;
        };
        UtilityRGroupsInput: {
            /** @description Cores as SMARTS or SMILES (1..10), labelled R groups ([*:1]) optional */
            cores: string[];
            /** @description Molecules to decompose (at most 1000, 100 synchronously) */
            molecules: string[];
            /**
             * @description How to read each molecule: auto (a molblock when it has an "M  END" line, InChI when it starts with "InChI=", else SMILES), smiles, molblock or inchi
             * @default auto
             * @enum {string}
             */
            input_format?: "auto" | "smiles" | "molblock" | "inchi";
            /**
             * @description Only allow substituents at the labelled R groups of the cores
             * @default false
             */
            only_match_at_rgroups?: boolean;
        };
        /** @description The convert tool and its input */
        UtilityConvertCall: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "convert";
            input: components["schemas"]["UtilityConvertInput"];
        };
        /** @description The fingerprints tool and its input */
        UtilityFingerprintsCall: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "fingerprints";
            input: components["schemas"]["UtilityFingerprintsInput"];
        };
        /** @description The similarity tool and its input */
        UtilitySimilarityCall: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "similarity";
            input: components["schemas"]["UtilitySimilarityInput"];
        };
        /** @description The substructure tool and its input */
        UtilitySubstructureCall: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "substructure";
            input: components["schemas"]["UtilitySubstructureInput"];
        };
        /** @description The mcs tool and its input */
        UtilityMcsCall: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "mcs";
            input: components["schemas"]["UtilityMcsInput"];
        };
        /** @description The rgroups tool and its input */
        UtilityRGroupsCall: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "rgroups";
            input: components["schemas"]["UtilityRGroupsInput"];
        };
        /** @description A tool and its input; tool is one of convert, fingerprints, similarity, substructure, mcs, rgroups */
        UtilityRunRequest: components["schemas"]["UtilityConvertCall"] | components["schemas"]["UtilityFingerprintsCall"] | components["schemas"]["UtilitySimilarityCall"] | components["schemas"]["UtilitySubstructureCall"] | components["schemas"]["UtilityMcsCall"] | components["schemas"]["UtilityRGroupsCall"];
        /** @description A tool and its input, for an asynchronous request (up to 100,000 molecules, or an uploaded set) */
        UtilitySubmitRequest: components["schemas"]["UtilityConvertCall"] | components["schemas"]["UtilityFingerprintsCall"] | components["schemas"]["UtilitySimilarityCall"] | components["schemas"]["UtilitySubstructureCall"] | components["schemas"]["UtilityMcsCall"] | components["schemas"]["UtilityRGroupsCall"];
        /** @description convert: the requested outputs of each molecule */
        UtilityConvertResult: {
            outputs: string[];
            items: {
                /** @description Position in the input */
                index: number;
                /** @description From an uploaded set: the record id */
                id?: string;
                /** @description From an uploaded set: the record name (null when it has none) */
                name?: string | null;
                smiles?: string | null;
                cxsmiles?: string | null;
                kekule_smiles?: string | null;
                molblock?: string | null;
                molblock_v3000?: string | null;
                inchi?: string | null;
                inchikey?: string | null;
                formula?: string | null;
                /** @description RDKit's CommonChem JSON of the molecule */
                json?: unknown;
                /** @description Why this molecule has no result (null when it has one) */
                error: ("unparseable" | "too_large" | "unsupported_format" | "failed") | null;
                /** @description The reason in words, e.g. RDKit's "unclosed ring" */
                detail: string | null;
            }[];
            counts: {
                molecules: number;
                ok: number;
                failed: number;
            };
        };
        /** @description fingerprints: one per molecule */
        UtilityFingerprintsResult: {
            fingerprint: {
                type: string;
                radius?: number;
                n_bits: number;
            };
            format: string;
            items: {
                /** @description Position in the input */
                index: number;
                /** @description From an uploaded set: the record id */
                id?: string;
                /** @description From an uploaded set: the record name (null when it has none) */
                name?: string | null;
                /** @description On-bit indices (format bits) or the packed vector as hex or base64 */
                fingerprint: (number[] | string) | null;
                on_bits: number | null;
                /** @description Why this molecule has no result (null when it has one) */
                error: ("unparseable" | "too_large" | "unsupported_format" | "failed") | null;
                /** @description The reason in words, e.g. RDKit's "unclosed ring" */
                detail: string | null;
            }[];
            counts: {
                molecules: number;
                ok: number;
                failed: number;
            };
        };
        /** @description similarity: the best library hits of each query */
        UtilitySimilarityResult: {
            fingerprint: {
                type: string;
                radius?: number;
                n_bits: number;
            };
            metric: string;
            threshold: number;
            top_k: number;
            library_size: number;
            /** @description Library molecules RDKit could not read (left out of every search) */
            library_errors: {
                /** @description Position in the input */
                index: number;
                /** @description From an uploaded set: the record id */
                id?: string;
                /** @description From an uploaded set: the record name (null when it has none) */
                name?: string | null;
                /** @description Why this molecule has no result (null when it has one) */
                error: ("unparseable" | "too_large" | "unsupported_format" | "failed") | null;
                /** @description The reason in words, e.g. RDKit's "unclosed ring" */
                detail: string | null;
            }[];
            /** @description One per query */
            items: {
                /** @description Position in the input */
                index: number;
                /** @description The query as given */
                query: string;
                /** @description Best first; ties in library order */
                hits: {
                    /** @description Library position */
                    index: number;
                    /** @description From an uploaded set: the record id */
                    id?: string;
                    /** @description From an uploaded set: the record name (null when it has none) */
                    name?: string | null;
                    /** @description The library molecule as given (or as the uploaded set holds it) */
                    smiles: string;
                    score: number;
                }[] | null;
                above_threshold: number | null;
                /** @description Why this molecule has no result (null when it has one) */
                error: ("unparseable" | "too_large" | "unsupported_format" | "failed") | null;
                /** @description The reason in words, e.g. RDKit's "unclosed ring" */
                detail: string | null;
            }[];
            counts: {
                molecules: number;
                ok: number;
                failed: number;
            };
        };
        /** @description substructure: the matches in each molecule */
        UtilitySubstructureResult: {
            query: string;
            /**
             * @description How the query was read
             * @enum {string}
             */
            query_format: "smarts" | "smiles";
            /** @description Molecules that contain the query */
            matched: number;
            items: {
                /** @description Position in the input */
                index: number;
                /** @description From an uploaded set: the record id */
                id?: string;
                /** @description From an uploaded set: the record name (null when it has none) */
                name?: string | null;
                matched: boolean;
                /** @description Each match's atom indices, in the query's atom order */
                matches: number[][] | null;
                svg?: string | null;
                /** @description Why this molecule has no result (null when it has one) */
                error: ("unparseable" | "too_large" | "unsupported_format" | "failed") | null;
                /** @description The reason in words, e.g. RDKit's "unclosed ring" */
                detail: string | null;
            }[];
            counts: {
                molecules: number;
                ok: number;
                failed: number;
            };
        };
        /** @description mcs: the maximum common substructure */
        UtilityMcsResult: {
            /** @description The maximum common substructure as SMARTS (null when fewer than 2 molecules could be read) */
            smarts: string | null;
            num_atoms: number;
            num_bonds: number;
            /** @description The timeout ran out: the best found so far */
            timed_out: boolean;
            items: {
                /** @description Position in the input */
                index: number;
                /** @description The MCS atoms in this molecule */
                atoms: number[] | null;
                /** @description Why this molecule has no result (null when it has one) */
                error: ("unparseable" | "too_large" | "unsupported_format" | "failed") | null;
                /** @description The reason in words, e.g. RDKit's "unclosed ring" */
                detail: string | null;
            }[];
            counts: {
                molecules: number;
                ok: number;
                failed: number;
            };
        };
        /** @description rgroups: a row per molecule with its core and R groups */
        UtilityRGroupsResult: {
            /** @description R-group labels found (R1, R2, ...) */
            columns: string[];
            items: {
                /** @description Position in the input */
                index: number;
                matched: boolean;
                core: string | null;
                rgroups: {
                    [key: string]: string;
                } | null;
                /** @description Why this molecule has no result (null when it has one) */
                error: ("unparseable" | "too_large" | "unsupported_format" | "failed") | null;
                /** @description The reason in words, e.g. RDKit's "unclosed ring" */
                detail: string | null;
            }[];
            /** @description Molecules read but not matching any core */
            unmatched: number[];
            counts: {
                molecules: number;
                ok: number;
                failed: number;
            };
        };
        /** @description The convert tool's answer */
        UtilityConvertRunResponse: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "convert";
            /** @description The result, when its JSON is at most 1 MiB */
            result: components["schemas"]["UtilityConvertResult"] | null;
            /** @description An artifact holding the result (port result, record result) when it is larger */
            result_artifact_id: string | null;
            /** @description Calls counted against the monthly allowance */
            counted: number;
        };
        /** @description The fingerprints tool's answer */
        UtilityFingerprintsRunResponse: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "fingerprints";
            /** @description The result, when its JSON is at most 1 MiB */
            result: components["schemas"]["UtilityFingerprintsResult"] | null;
            /** @description An artifact holding the result (port result, record result) when it is larger */
            result_artifact_id: string | null;
            /** @description Calls counted against the monthly allowance */
            counted: number;
        };
        /** @description The similarity tool's answer */
        UtilitySimilarityRunResponse: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "similarity";
            /** @description The result, when its JSON is at most 1 MiB */
            result: components["schemas"]["UtilitySimilarityResult"] | null;
            /** @description An artifact holding the result (port result, record result) when it is larger */
            result_artifact_id: string | null;
            /** @description Calls counted against the monthly allowance */
            counted: number;
        };
        /** @description The substructure tool's answer */
        UtilitySubstructureRunResponse: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "substructure";
            /** @description The result, when its JSON is at most 1 MiB */
            result: components["schemas"]["UtilitySubstructureResult"] | null;
            /** @description An artifact holding the result (port result, record result) when it is larger */
            result_artifact_id: string | null;
            /** @description Calls counted against the monthly allowance */
            counted: number;
        };
        /** @description The mcs tool's answer */
        UtilityMcsRunResponse: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "mcs";
            /** @description The result, when its JSON is at most 1 MiB */
            result: components["schemas"]["UtilityMcsResult"] | null;
            /** @description An artifact holding the result (port result, record result) when it is larger */
            result_artifact_id: string | null;
            /** @description Calls counted against the monthly allowance */
            counted: number;
        };
        /** @description The rgroups tool's answer */
        UtilityRGroupsRunResponse: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "rgroups";
            /** @description The result, when its JSON is at most 1 MiB */
            result: components["schemas"]["UtilityRGroupsResult"] | null;
            /** @description An artifact holding the result (port result, record result) when it is larger */
            result_artifact_id: string | null;
            /** @description Calls counted against the monthly allowance */
            counted: number;
        };
        /** @description The tool's result (or the artifact holding it) and the calls counted */
        UtilityRunResponse: components["schemas"]["UtilityConvertRunResponse"] | components["schemas"]["UtilityFingerprintsRunResponse"] | components["schemas"]["UtilitySimilarityRunResponse"] | components["schemas"]["UtilitySubstructureRunResponse"] | components["schemas"]["UtilityMcsRunResponse"] | components["schemas"]["UtilityRGroupsRunResponse"];
        UtilityCatalog: {
            tools: {
                /** @enum {string} */
                name: "convert" | "fingerprints" | "similarity" | "substructure" | "mcs" | "rgroups";
                summary: string;
                /** @description JSON Schema of the tool's input */
                input_schema: unknown;
                limits: {
                    sync: {
                        [key: string]: number;
                    };
                    async: {
                        [key: string]: number;
                    };
                };
            }[];
            counting: string;
        };
        UtilityRequestSummary: {
            request_id: string;
            /** @enum {string} */
            tool: "convert" | "fingerprints" | "similarity" | "substructure" | "mcs" | "rgroups";
            status: "queued" | "dispatched" | "running" | "completed" | "error" | "cancelled";
            message: string;
            progress: number;
            molecules: number;
            /** @description Calls counted against the monthly allowance: ceil(molecules / 100) */
            counted: number;
            /** Format: date-time */
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
        };
        /** @description An asynchronous request of the convert tool */
        UtilityConvertRequest: {
            request_id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "convert";
            status: "queued" | "dispatched" | "running" | "completed" | "error" | "cancelled";
            message: string;
            progress: number;
            molecules: number;
            /** @description Calls counted against the monthly allowance: ceil(molecules / 100) */
            counted: number;
            /** Format: date-time */
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
            /** @description Once completed, when its JSON is at most 1 MiB */
            result: components["schemas"]["UtilityConvertResult"] | null;
            /** @description Once completed: the artifact holding the result (port result, record result) */
            result_artifact_id: string | null;
            result_size_bytes: number | null;
        };
        /** @description An asynchronous request of the fingerprints tool */
        UtilityFingerprintsRequest: {
            request_id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "fingerprints";
            status: "queued" | "dispatched" | "running" | "completed" | "error" | "cancelled";
            message: string;
            progress: number;
            molecules: number;
            /** @description Calls counted against the monthly allowance: ceil(molecules / 100) */
            counted: number;
            /** Format: date-time */
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
            /** @description Once completed, when its JSON is at most 1 MiB */
            result: components["schemas"]["UtilityFingerprintsResult"] | null;
            /** @description Once completed: the artifact holding the result (port result, record result) */
            result_artifact_id: string | null;
            result_size_bytes: number | null;
        };
        /** @description An asynchronous request of the similarity tool */
        UtilitySimilarityRequest: {
            request_id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "similarity";
            status: "queued" | "dispatched" | "running" | "completed" | "error" | "cancelled";
            message: string;
            progress: number;
            molecules: number;
            /** @description Calls counted against the monthly allowance: ceil(molecules / 100) */
            counted: number;
            /** Format: date-time */
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
            /** @description Once completed, when its JSON is at most 1 MiB */
            result: components["schemas"]["UtilitySimilarityResult"] | null;
            /** @description Once completed: the artifact holding the result (port result, record result) */
            result_artifact_id: string | null;
            result_size_bytes: number | null;
        };
        /** @description An asynchronous request of the substructure tool */
        UtilitySubstructureRequest: {
            request_id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "substructure";
            status: "queued" | "dispatched" | "running" | "completed" | "error" | "cancelled";
            message: string;
            progress: number;
            molecules: number;
            /** @description Calls counted against the monthly allowance: ceil(molecules / 100) */
            counted: number;
            /** Format: date-time */
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
            /** @description Once completed, when its JSON is at most 1 MiB */
            result: components["schemas"]["UtilitySubstructureResult"] | null;
            /** @description Once completed: the artifact holding the result (port result, record result) */
            result_artifact_id: string | null;
            result_size_bytes: number | null;
        };
        /** @description An asynchronous request of the mcs tool */
        UtilityMcsRequest: {
            request_id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "mcs";
            status: "queued" | "dispatched" | "running" | "completed" | "error" | "cancelled";
            message: string;
            progress: number;
            molecules: number;
            /** @description Calls counted against the monthly allowance: ceil(molecules / 100) */
            counted: number;
            /** Format: date-time */
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
            /** @description Once completed, when its JSON is at most 1 MiB */
            result: components["schemas"]["UtilityMcsResult"] | null;
            /** @description Once completed: the artifact holding the result (port result, record result) */
            result_artifact_id: string | null;
            result_size_bytes: number | null;
        };
        /** @description An asynchronous request of the rgroups tool */
        UtilityRGroupsRequest: {
            request_id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "rgroups";
            status: "queued" | "dispatched" | "running" | "completed" | "error" | "cancelled";
            message: string;
            progress: number;
            molecules: number;
            /** @description Calls counted against the monthly allowance: ceil(molecules / 100) */
            counted: number;
            /** Format: date-time */
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
            /** @description Once completed, when its JSON is at most 1 MiB */
            result: components["schemas"]["UtilityRGroupsResult"] | null;
            /** @description Once completed: the artifact holding the result (port result, record result) */
            result_artifact_id: string | null;
            result_size_bytes: number | null;
        };
        /** @description An asynchronous request: its state, progress and, once completed, its result */
        UtilityRequest: components["schemas"]["UtilityConvertRequest"] | components["schemas"]["UtilityFingerprintsRequest"] | components["schemas"]["UtilitySimilarityRequest"] | components["schemas"]["UtilitySubstructureRequest"] | components["schemas"]["UtilityMcsRequest"] | components["schemas"]["UtilityRGroupsRequest"];
        UtilityRequestList: {
            items: components["schemas"]["UtilityRequestSummary"][];
            total: number;
            limit: number;
            offset: number;
        };
        PredictionItem: {
            /** @description From a molecule set (input_artifact_id): the record id, as in the set (made unique with ~2, ~3 when it repeats) */
            id?: string;
            /** @description From a molecule set: the record name (null when it has none) */
            name?: string | null;
            /** @description The SMILES as given; from a molecule set, the set's SMILES (RDKit's for an SDF record) */
            smiles: string;
            /** @description In the target units (regression) or the probability of class 1 (classification); null when error is set */
            prediction: number | null;
            /** @description The ensemble's standard deviation; null for a single model or when not asked for */
            uncertainty: number | null;
            /** @description Within the model's applicability domain: highest Tanimoto similarity to a training molecule >= the model's threshold */
            in_domain: boolean | null;
            error: string | null;
        };
        PredictRequest: {
            /** @description public/<id> or user/<name> (GET /inference/models) */
            model: string;
            /** @description 1 to 100 SMILES (larger batches: POST /inference/submit) */
            smiles: string[];
            /** @default true */
            uncertainty?: boolean;
        };
        PredictResponse: {
            model: string;
            /** @enum {string} */
            task: "regression" | "classification";
            target: string;
            units: string | null;
            predictions: components["schemas"]["PredictionItem"][];
            counted: number;
        };
        InferenceSubmitRequest: {
            /** @description public/<id> or user/<name> (GET /inference/models) */
            model: string;
            smiles?: string[];
            /** @description An uploaded molecule set instead of smiles */
            input_artifact_id?: string;
            port?: string;
            /** @default true */
            uncertainty?: boolean;
        };
        InferenceModels: {
            models: {
                model: string;
                /**
                 * @description A public model or one of yours
                 * @enum {string}
                 */
                kind: "public" | "user";
                name: string;
                /** @enum {string} */
                task: "regression" | "classification";
                target: string;
                units: string | null;
                limits: {
                    sync_smiles: number;
                    async_smiles: number;
                };
            }[];
        };
        InferenceRequest: {
            request_id: string;
            model: string;
            status: "queued" | "dispatched" | "running" | "completed" | "error" | "cancelled";
            message: string;
            progress: number;
            molecules: number;
            counted: number;
            /** Format: date-time */
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
            counts: {
                molecules: number;
                ok: number;
                failed: number;
            } | null;
        };
        InferenceRequestList: {
            items: components["schemas"]["InferenceRequest"][];
            total: number;
            limit: number;
            offset: number;
        };
        InferenceResultPage: {
            request_id: string;
            model: string;
            total: number;
            limit: number;
            offset: number;
            predictions: components["schemas"]["PredictionItem"][];
        };
        WorkflowSpec: {
            name: string;
            description?: string;
            inputs?: {
                [key: string]: {
                    /** @enum {string} */
                    type: "molecules" | "number" | "integer" | "string" | "boolean" | "model";
                    default?: unknown;
                    description?: string;
                };
            };
            steps: {
                /** @description Letters, digits, _ and -; starts with a letter */
                id: string;
                job_type: string;
                inputs?: {
                    [key: string]: string;
                };
                params?: {
                    [key: string]: unknown;
                };
                resource?: string;
                continue_on_error?: boolean;
            }[];
            outputs?: {
                [key: string]: string;
            };
        };
        WorkflowValidation: {
            valid: boolean;
            /** @description Every problem, located relative to the request (["spec", "steps", 2, "inputs", "molecules"]) */
            errors: {
                type: string;
                loc: (string | number)[];
                msg: string;
                input: unknown;
            }[];
            warnings: {
                type: string;
                loc: (string | number)[];
                msg: string;
                input: unknown;
            }[];
            /** @description An order in which every step comes after the steps it reads from (empty when there is a cycle) */
            step_order: string[];
        };
        WorkflowEstimate: {
            /** @description USD a run reserves at start */
            cost: number;
            /** @description The longest chain of steps */
            expected_runtime_sec: number;
            steps: {
                step_id: string;
                /** @enum {string} */
                job_type: "properties" | "depict" | "similarity_search" | "substructure_search" | "cluster" | "filter" | "profile_table" | "wait" | "mpnn_train" | "mpnn_predict" | "optimize" | "singlepoint" | "docking" | "pose_check" | "pockets" | "conformers" | "frequencies" | "scan" | "properties_qm" | "rerank" | "pka" | "tautomers" | "bde" | "reactivity" | "receptor_prepare";
                /** @enum {string} */
                resource: "default" | "cpu-4";
                expected_runtime_sec: number;
                cost: number;
                assumptions: {
                    [key: string]: unknown;
                };
            }[];
            assumptions: {
                [key: string]: unknown;
            };
        };
        WorkflowValidateRequest: {
            /** @description A workflow spec; validated here, every problem reported at once */
            spec: components["schemas"]["WorkflowSpec"];
        };
        /** @description Exactly one of spec and template_id, and the inputs of the run if known */
        WorkflowEstimateRequest: {
            /** @description A workflow spec; validated here, every problem reported at once. Exactly one of spec and template_id */
            spec?: components["schemas"]["WorkflowSpec"];
            /** @description A built-in template (GET /workflows/templates), priced as POST /workflows/runs with this template_id would reserve. Exactly one of spec and template_id */
            template_id?: string;
            /** @description Values of the workflow's inputs (a molecules input: an artifact id or a list of SMILES); defaults fill the rest. The estimate reads them as a run start does (a molecule set is counted); without them a bound set is assumed to hold 1,000 molecules */
            inputs?: {
                [key: string]: unknown;
            };
        };
        WorkflowSaveRequest: {
            /** @description A workflow spec (at most 256 KiB and 50 steps); validated, every problem reported at once */
            spec: components["schemas"]["WorkflowSpec"];
            name?: string;
            description?: string;
        };
        WorkflowUpdateRequest: {
            /** @description A workflow spec (at most 256 KiB and 50 steps); validated, every problem reported at once */
            spec: components["schemas"]["WorkflowSpec"];
            /** @description The version this edit starts from: it must be the latest, else 409 version-conflict */
            base_version: number;
            name?: string;
            description?: string;
        };
        WorkflowDefinition: {
            workflow_id: string;
            version: number;
            latest_version: number;
            name: string;
            description: string;
            /** @description The spec of this version */
            spec: components["schemas"]["WorkflowSpec"];
            /** @description Your access: owner, or a share with run or view permission */
            access: "owner" | "run" | "view";
            /** @description {workflow_id, version} or {template_id} of the source of a fork */
            forked_from: {
                [key: string]: unknown;
            } | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            version_created_at: string;
            deleted_at: string | null;
            restorable_until: string | null;
        };
        WorkflowSummary: {
            workflow_id: string;
            name: string;
            description: string;
            latest_version: number;
            /** @description Your access: owner, or a share with run or view permission */
            access: "owner" | "run" | "view";
            /** @description {workflow_id, version} or {template_id} of the source of a fork */
            forked_from: {
                [key: string]: unknown;
            } | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            deleted_at: string | null;
        };
        WorkflowList: {
            workflows: components["schemas"]["WorkflowSummary"][];
            total: number;
            limit: number;
            offset: number;
        };
        WorkflowRestoreRequest: {
            /** @description Make this version the latest (saved as a new version) */
            version?: number;
        };
        WorkflowForkRequest: {
            version?: number;
            name?: string;
        };
        WorkflowVersions: {
            workflow_id: string;
            latest_version: number;
            versions: {
                version: number;
                /** Format: date-time */
                created_at: string;
                restored_from: number | null;
                name: string;
                steps: number;
            }[];
        };
        WorkflowShareRequest: {
            /** @description The user's account email (or give link: true) */
            email?: string;
            /** @description true: create a link token (shown once) that any signed-in holder can use */
            link?: boolean;
            /** @description view: read and fork; run: also start runs (charged to the runner) */
            permission: "view" | "run";
        };
        WorkflowShare: {
            share_id: string;
            workflow_id: string;
            kind: "user" | "link";
            email: string | null;
            permission: "view" | "run";
            /** Format: date-time */
            created_at: string;
            /** @description The link token: shown only in the answer that creates it */
            token?: string;
            url?: string;
        };
        WorkflowShares: {
            shares: components["schemas"]["WorkflowShare"][];
        };
        WorkflowTemplates: {
            templates: {
                template_id: string;
                name: string;
                description: string;
                spec: components["schemas"]["WorkflowSpec"];
            }[];
        };
        /** @description Exactly one source of the spec (workflow_id, share_token, template_id or spec), and the inputs */
        WorkflowRunStartRequest: components["schemas"]["WorkflowRunFromDefinition"] | components["schemas"]["WorkflowRunFromShareLink"] | components["schemas"]["WorkflowRunFromTemplate"] | components["schemas"]["WorkflowRunFromSpec"];
        /** @description Run a saved definition */
        WorkflowRunFromDefinition: {
            /** @description A saved definition (yours or shared with run permission) */
            workflow_id: string;
            /** @description With workflow_id: this version (default the latest) */
            version?: number;
            /** @description Values of the workflow's inputs (a molecules input: an artifact id or a list of SMILES); defaults fill the rest */
            inputs?: {
                [key: string]: unknown;
            };
            name?: string;
        };
        /** @description Run a definition shared by link with run permission */
        WorkflowRunFromShareLink: {
            /** @description A link token with run permission */
            share_token: string;
            /** @description Values of the workflow's inputs (a molecules input: an artifact id or a list of SMILES); defaults fill the rest */
            inputs?: {
                [key: string]: unknown;
            };
            name?: string;
        };
        /** @description Run a built-in template */
        WorkflowRunFromTemplate: {
            /** @description A built-in template (GET /workflows/templates) */
            template_id: string;
            /** @description Values of the workflow's inputs (a molecules input: an artifact id or a list of SMILES); defaults fill the rest */
            inputs?: {
                [key: string]: unknown;
            };
            name?: string;
        };
        /** @description Run an inline spec */
        WorkflowRunFromSpec: {
            /** @description A workflow spec (at most 256 KiB and 50 steps); validated, every problem reported at once */
            spec: components["schemas"]["WorkflowSpec"];
            /** @description Values of the workflow's inputs (a molecules input: an artifact id or a list of SMILES); defaults fill the rest */
            inputs?: {
                [key: string]: unknown;
            };
            name?: string;
        };
        WorkflowRerunRequest: {
            /**
             * @description Reuse the outputs of steps whose job type, params and inputs are unchanged
             * @default false
             */
            reuse_completed?: boolean;
        };
        WorkflowRunSummary: {
            run_id: string;
            name: string;
            status: "queued" | "running" | "completed" | "failed" | "cancelled";
            message: string;
            workflow_id: string | null;
            version: number | null;
            template_id: string | null;
            rerun_of: string | null;
            inputs: {
                [key: string]: unknown;
            };
            /** @description Reserved at start: the most the run can be charged */
            reserved_usd: number;
            /** @description Charged so far by ended steps */
            charged_usd: number;
            cost_so_far_usd: number;
            steps_done: number;
            steps_total: number;
            progress: number;
            /** Format: date-time */
            created_at: string;
            finished_at: string | null;
        };
        WorkflowRun: {
            run_id: string;
            name: string;
            status: "queued" | "running" | "completed" | "failed" | "cancelled";
            message: string;
            workflow_id: string | null;
            version: number | null;
            template_id: string | null;
            rerun_of: string | null;
            inputs: {
                [key: string]: unknown;
            };
            /** @description Reserved at start: the most the run can be charged */
            reserved_usd: number;
            /** @description Charged so far by ended steps */
            charged_usd: number;
            cost_so_far_usd: number;
            steps_done: number;
            steps_total: number;
            progress: number;
            /** Format: date-time */
            created_at: string;
            finished_at: string | null;
            steps: {
                step_id: string;
                /** @enum {string} */
                job_type: "properties" | "depict" | "similarity_search" | "substructure_search" | "cluster" | "filter" | "profile_table" | "wait" | "mpnn_train" | "mpnn_predict" | "optimize" | "singlepoint" | "docking" | "pose_check" | "pockets" | "conformers" | "frequencies" | "scan" | "properties_qm" | "rerank" | "pka" | "tautomers" | "bde" | "reactivity" | "receptor_prepare";
                /** @description pending: waiting for its inputs; queued/running: its job; skipped: a step it reads from did not complete; reused: outputs of an earlier run */
                state: "pending" | "queued" | "running" | "completed" | "failed" | "cancelled" | "skipped" | "reused";
                job_id: string | null;
                progress: number;
                runtime_seconds: number | null;
                /** @description Charged, or for a running step its runtime so far at its rate */
                cost_usd: number;
                /** @description The step's share of the run's reservation (the most it can be charged) */
                planned_usd: number;
                result_artifact_id: string | null;
                message: string;
            }[];
            outputs: {
                [key: string]: {
                    step_id: string;
                    port: string;
                    artifact_id: string | null;
                    ready: boolean;
                };
            };
        };
        WorkflowRunList: {
            runs: components["schemas"]["WorkflowRunSummary"][];
            total: number;
            limit: number;
            offset: number;
        };
        WorkflowRunStatus: {
            run_id: string;
            status: "queued" | "running" | "completed" | "failed" | "cancelled";
            steps_done: number;
            steps_total: number;
            progress: number;
            cost_so_far_usd: number;
            steps: {
                step_id: string;
                /** @description pending: waiting for its inputs; queued/running: its job; skipped: a step it reads from did not complete; reused: outputs of an earlier run */
                state: "pending" | "queued" | "running" | "completed" | "failed" | "cancelled" | "skipped" | "reused";
                progress: number;
            }[];
        };
        WorkflowRunStep: {
            run_id: string;
            step_id: string;
            /** @enum {string} */
            job_type: "properties" | "depict" | "similarity_search" | "substructure_search" | "cluster" | "filter" | "profile_table" | "wait" | "mpnn_train" | "mpnn_predict" | "optimize" | "singlepoint" | "docking" | "pose_check" | "pockets" | "conformers" | "frequencies" | "scan" | "properties_qm" | "rerank" | "pka" | "tautomers" | "bde" | "reactivity" | "receptor_prepare";
            /** @description pending: waiting for its inputs; queued/running: its job; skipped: a step it reads from did not complete; reused: outputs of an earlier run */
            state: "pending" | "queued" | "running" | "completed" | "failed" | "cancelled" | "skipped" | "reused";
            job_id: string | null;
            progress: number;
            runtime_seconds: number | null;
            /** @description Charged, or for a running step its runtime so far at its rate */
            cost_usd: number;
            /** @description The step's share of the run's reservation (the most it can be charged) */
            planned_usd: number;
            result_artifact_id: string | null;
            message: string;
            /** @description The step's output ports (and `result`, its result document) once it has completed */
            outputs: {
                [key: string]: {
                    artifact_id: string;
                    port: string;
                };
            };
            error: string | null;
        };
        WorkflowRunOutputs: {
            run_id: string;
            status: "queued" | "running" | "completed" | "failed" | "cancelled";
            outputs: {
                [key: string]: {
                    step_id: string;
                    port: string;
                    artifact_id: string | null;
                    ready: boolean;
                };
            };
        };
        WorkflowRunGraph: {
            run_id: string;
            /** @description The run's name (the title of the SVG and Mermaid pictures) */
            name: string;
            status: "queued" | "running" | "completed" | "failed" | "cancelled";
            nodes: {
                id: string;
                kind: "input" | "step" | "output";
                label: string;
                job_type: ("properties" | "depict" | "similarity_search" | "substructure_search" | "cluster" | "filter" | "profile_table" | "wait" | "mpnn_train" | "mpnn_predict" | "optimize" | "singlepoint" | "docking" | "pose_check" | "pockets" | "conformers" | "frequencies" | "scan" | "properties_qm" | "rerank" | "pka" | "tautomers" | "bde" | "reactivity" | "receptor_prepare") | null;
                state: ("pending" | "queued" | "running" | "completed" | "failed" | "cancelled" | "skipped" | "reused") | null;
                progress: number | null;
            }[];
            edges: {
                from: string;
                to: string;
                label: string;
            }[];
        };
        /** @description One event of the text/event-stream */
        AssistantStreamEvent: {
            /** @description The SSE `id:` line: the event’s number in the turn */
            id: number;
            /** @enum {string} */
            event: "delta";
            data: {
                text: string;
            };
        } | {
            /** @description The SSE `id:` line: the event’s number in the turn */
            id: number;
            /** @enum {string} */
            event: "tool_call";
            data: {
                call_id: string;
                name: string;
                /** @description The parsed JSON arguments (the text when not JSON) */
                arguments: unknown;
            };
        } | {
            /** @description The SSE `id:` line: the event’s number in the turn */
            id: number;
            /** @enum {string} */
            event: "tool_result";
            data: {
                call_id: string;
                name: string;
                ok: boolean;
                /** @description The tool’s answer; `{error: {code, message}}` when it failed */
                result: unknown;
            };
        } | {
            /** @description The SSE `id:` line: the event’s number in the turn */
            id: number;
            /** @enum {string} */
            event: "plan";
            data: {
                plan_id: string;
                title: string;
                /** @enum {string} */
                status: "proposed";
                /** Format: date-time */
                expires_at: string;
                /** @description What the run reserves when it starts */
                cost_usd: number;
                expected_runtime_sec: number;
                steps: {
                    step_id: string;
                    /** @enum {string} */
                    job_type: "properties" | "depict" | "similarity_search" | "substructure_search" | "cluster" | "filter" | "profile_table" | "wait" | "mpnn_train" | "mpnn_predict" | "optimize" | "singlepoint" | "docking" | "pose_check" | "pockets" | "conformers" | "frequencies" | "scan" | "properties_qm" | "rerank" | "pka" | "tautomers" | "bde" | "reactivity" | "receptor_prepare";
                    cost_usd: number;
                    expected_runtime_sec: number;
                }[];
            };
        } | {
            /** @description The SSE `id:` line: the event’s number in the turn */
            id: number;
            /** @enum {string} */
            event: "usage";
            data: {
                input_tokens: number;
                output_tokens: number;
                cost_usd: number;
                hold_usd: number;
            };
        } | {
            /** @description The SSE `id:` line: the event’s number in the turn */
            id: number;
            /** @enum {string} */
            event: "done";
            data: {
                turn_id: string;
                status: "completed" | "stopped";
            };
        } | {
            /** @description The SSE `id:` line: the event’s number in the turn */
            id: number;
            /** @enum {string} */
            event: "error";
            data: {
                turn_id: string;
                /** @enum {string} */
                status: "error";
                message: string;
            };
        };
        AssistantSessionCreate: {
            /** @description Default "New session" */
            title?: string;
        };
        AssistantSessionRename: {
            title: string;
        };
        AssistantTurnRequest: {
            /** @description What you ask, 1 to 8000 characters */
            message: string;
        };
        AssistantSession: {
            session_id: string;
            title: string;
            turns: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        AssistantSessionList: {
            sessions: components["schemas"]["AssistantSession"][];
            total: number;
            limit: number;
            offset: number;
        };
        AssistantPlan: {
            plan_id: string;
            session_id: string;
            turn_id: string;
            title: string;
            status: "proposed" | "approved" | "rejected" | "expired";
            /** @description The run it starts: template_id or spec, with inputs (the body of POST /workflows/runs) */
            workflow: {
                [key: string]: unknown;
            };
            estimate: {
                /** @description What the run reserves when it starts */
                cost_usd: number;
                expected_runtime_sec: number;
                steps: {
                    step_id: string;
                    /** @enum {string} */
                    job_type: "properties" | "depict" | "similarity_search" | "substructure_search" | "cluster" | "filter" | "profile_table" | "wait" | "mpnn_train" | "mpnn_predict" | "optimize" | "singlepoint" | "docking" | "pose_check" | "pockets" | "conformers" | "frequencies" | "scan" | "properties_qm" | "rerank" | "pka" | "tautomers" | "bde" | "reactivity" | "receptor_prepare";
                    cost_usd: number;
                    expected_runtime_sec: number;
                }[];
            };
            /** @description The run its approval started */
            run_id: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
            decided_at: string | null;
        };
        /** @description The card, now approved, and the workflow run it started */
        AssistantPlanApproval: {
            plan_id: string;
            session_id: string;
            turn_id: string;
            title: string;
            status: "proposed" | "approved" | "rejected" | "expired";
            /** @description The run it starts: template_id or spec, with inputs (the body of POST /workflows/runs) */
            workflow: {
                [key: string]: unknown;
            };
            estimate: {
                /** @description What the run reserves when it starts */
                cost_usd: number;
                expected_runtime_sec: number;
                steps: {
                    step_id: string;
                    /** @enum {string} */
                    job_type: "properties" | "depict" | "similarity_search" | "substructure_search" | "cluster" | "filter" | "profile_table" | "wait" | "mpnn_train" | "mpnn_predict" | "optimize" | "singlepoint" | "docking" | "pose_check" | "pockets" | "conformers" | "frequencies" | "scan" | "properties_qm" | "rerank" | "pka" | "tautomers" | "bde" | "reactivity" | "receptor_prepare";
                    cost_usd: number;
                    expected_runtime_sec: number;
                }[];
            };
            run_id: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
            decided_at: string | null;
            run: components["schemas"]["WorkflowRun"];
        };
        AssistantSessionDetail: {
            session_id: string;
            title: string;
            turns: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            messages: {
                seq: number;
                turn_id: string;
                role: "user" | "assistant" | "tool";
                content: string;
                tool_calls: {
                    id: string;
                    name: string;
                    arguments: string;
                }[] | null;
                tool_call_id: string | null;
                /** Format: date-time */
                created_at: string;
            }[];
            plans: components["schemas"]["AssistantPlan"][];
        };
        AssistantTurn: {
            turn_id: string;
            session_id: string;
            status: "running" | "completed" | "stopped" | "error";
            message: string;
            model: string;
            input_tokens: number;
            output_tokens: number;
            /** @description Debited when the turn ended (0 while running) */
            cost_usd: number;
            /** @description Held while the turn runs */
            hold_usd: number;
            error: string | null;
            /** Format: date-time */
            created_at: string;
            finished_at: string | null;
        };
        AssistantTurnList: {
            turns: components["schemas"]["AssistantTurn"][];
            total: number;
            limit: number;
            offset: number;
        };
        AssistantTurnStarted: {
            turn_id: string;
            session_id: string;
            /** @enum {string} */
            status: "running";
            hold_usd: number;
            /** @description The path of its event stream */
            stream: string;
        };
        AssistantTurnEstimate: {
            model: string;
            message_tokens: number;
            /** @description Tokens of the first model step: instructions, tools, the conversation so far and this message */
            input_tokens_min: number;
            /** @description The most tokens (input and output) the turn may use */
            max_tokens: number;
            max_output_tokens: number;
            input_price_per_mtok_usd: number;
            output_price_per_mtok_usd: number;
            /** @description The first step’s input alone */
            min_cost_usd: number;
            /** @description What a turn holds while it runs (402 when the wallet cannot cover it); the most it can cost */
            hold_usd: number;
        };
        AssistantModels: {
            models: {
                model: string;
                provider: "builtin" | "openai";
                description: string;
                input_price_per_mtok_usd: number;
                output_price_per_mtok_usd: number;
                max_tokens_per_turn: number;
                hold_per_turn_usd: number;
            }[];
            default_model: string;
        };
    };
    responses: {
        /** @description Problem: the body is not valid JSON, or a required Idempotency-Key header is missing (missing-idempotency-key) */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "/api/v1/problems/http-400",
                 *       "title": "Bad request",
                 *       "status": 400,
                 *       "detail": "the body is not valid JSON: Expected property name or '}' in JSON at position 1",
                 *       "instance": "/api/v1/...",
                 *       "request_id": "01J9Z3K8Q4W5X6Y7Z8A9B0C1D2",
                 *       "retry": "validation"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Problem: no credential, or one that is invalid, expired (token-expired) or revoked (token-revoked) */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "/api/v1/problems/token-expired",
                 *       "title": "Token expired",
                 *       "status": 401,
                 *       "detail": "the access token has expired; refresh it with POST /api/v1/auth/refresh",
                 *       "instance": "/api/v1/...",
                 *       "request_id": "01J9Z3K8Q4W5X6Y7Z8A9B0C1D2",
                 *       "retry": "auth"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Problem: the credential lacks the scope (insufficient-scope), or a quota or spend ceiling is reached */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "/api/v1/problems/insufficient-scope",
                 *       "title": "Insufficient scope",
                 *       "status": 403,
                 *       "detail": "this API key lacks the \"write\" scope that POST /api/v1/jobs/submit needs",
                 *       "instance": "/api/v1/...",
                 *       "request_id": "01J9Z3K8Q4W5X6Y7Z8A9B0C1D2",
                 *       "retry": "auth"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Problem: no such resource among yours */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "/api/v1/problems/http-404",
                 *       "title": "Not found",
                 *       "status": 404,
                 *       "detail": "job 6f1c2d1e-8b1a-4c55-9d8e-2a4f3b7c9d10 not found",
                 *       "instance": "/api/v1/...",
                 *       "request_id": "01J9Z3K8Q4W5X6Y7Z8A9B0C1D2",
                 *       "retry": "terminal"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Problem: the Idempotency-Key was used for a different request (idempotency-key-reused), or its first request is still running (idempotency-key-in-progress) */
        IdempotencyConflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "/api/v1/problems/idempotency-key-reused",
                 *       "title": "Idempotency key reused with a different request",
                 *       "status": 409,
                 *       "detail": "this Idempotency-Key was first used for a different request (POST /api/v1/jobs/submit with another body); use a new key for a new request",
                 *       "instance": "/api/v1/...",
                 *       "request_id": "01J9Z3K8Q4W5X6Y7Z8A9B0C1D2",
                 *       "retry": "conflict"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Problem: the body is over its cap (payload-too-large; JSON bodies 1 MiB unless the operation says more) */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "/api/v1/problems/payload-too-large",
                 *       "title": "Payload too large",
                 *       "status": 413,
                 *       "detail": "the request body is larger than the limit of 1048576 bytes",
                 *       "instance": "/api/v1/...",
                 *       "request_id": "01J9Z3K8Q4W5X6Y7Z8A9B0C1D2",
                 *       "retry": "validation"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Problem: the body is not in a media type this operation takes */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "/api/v1/problems/http-415",
                 *       "title": "Unsupported media type",
                 *       "status": 415,
                 *       "detail": "content type \"text/plain\" is not accepted here; send application/json",
                 *       "instance": "/api/v1/...",
                 *       "request_id": "01J9Z3K8Q4W5X6Y7Z8A9B0C1D2",
                 *       "retry": "validation"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Problem: the input is invalid; `errors` locates every issue */
        ValidationFailed: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "/api/v1/problems/http-422",
                 *       "title": "Validation failed",
                 *       "status": 422,
                 *       "detail": "body.smiles.0: String should have at most 2000 characters",
                 *       "instance": "/api/v1/...",
                 *       "request_id": "01J9Z3K8Q4W5X6Y7Z8A9B0C1D2",
                 *       "retry": "validation",
                 *       "errors": [
                 *         {
                 *           "type": "string_too_long",
                 *           "loc": [
                 *             "body",
                 *             "smiles",
                 *             0
                 *           ],
                 *           "msg": "String should have at most 2000 characters",
                 *           "input": "CCCC..."
                 *         }
                 *       ]
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Problem: over the rate limit (rate-limited); Retry-After and RateLimit-* tell when to come back */
        TooManyRequests: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "/api/v1/problems/rate-limited",
                 *       "title": "Too many requests",
                 *       "status": 429,
                 *       "detail": "rate limit of 600 requests per minute reached for this credential; retry in 12 s",
                 *       "instance": "/api/v1/...",
                 *       "request_id": "01J9Z3K8Q4W5X6Y7Z8A9B0C1D2",
                 *       "retry": "quota"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Problem: an unexpected fault on the server (quote request_id) */
        InternalError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "/api/v1/problems/http-500",
                 *       "title": "Internal server error",
                 *       "status": 500,
                 *       "detail": "internal error",
                 *       "instance": "/api/v1/...",
                 *       "request_id": "01J9Z3K8Q4W5X6Y7Z8A9B0C1D2",
                 *       "retry": "terminal"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process serves requests */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        status: string;
                        checks?: {
                            [key: string]: string;
                        };
                    };
                };
            };
            500: components["responses"]["InternalError"];
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The database answers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        status: string;
                        checks?: {
                            [key: string]: string;
                        };
                    };
                };
            };
            500: components["responses"]["InternalError"];
            /** @description Problem: the database does not answer within 2 s (retry upstream) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    loginWithEmail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    /** @description The account email */
                    username: string;
                    password: string;
                    grant_type?: string;
                    scope?: string;
                    client_id?: string;
                    client_secret?: string;
                };
            };
        };
        responses: {
            /** @description An access token (900 s) and a refresh token (30 days, single use) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    checkCredential: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The credential is valid */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    refreshTokensDeprecated: {
        parameters: {
            query: {
                refresh_token: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A new token pair (deprecated route: Deprecation, Sunset and Link headers) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    refreshTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    refresh_token: string;
                };
            };
        };
        responses: {
            /** @description A new token pair; the refresh token given is spent */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session is ended: its access and refresh tokens stop working */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getWallet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The balance, reservations and available funds, in USD */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WalletResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listLedgerEntries: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Only rows older than this entry id */
                before?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of ledger rows and the cursor of the next */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LedgerResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Your API keys (never their secrets) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyListResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKeyRequest"];
            };
        };
        responses: {
            /** @description The new key, with its secret shown this once */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyCreatedResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key (never its secret) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyListItem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key is deleted and stops working at once */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    renameApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RenameApiKeyRequest"];
            };
        };
        responses: {
            /** @description The key, renamed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyListItem"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    rotateApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key with a new secret, shown this once; the old secret stops working */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyCreatedResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description A next_cursor (or an event cursor); absent: from the oldest retained event */
                after?: string;
                kind?: "job" | "workflow_run";
                /** @description Only the events of this job or workflow run */
                subject_id?: string;
                /** @description Most events per response */
                limit?: number;
                /** @description Long poll: seconds to wait for a matching event when there is none yet (0: answer at once) */
                wait?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The events after the cursor (possibly none, after a long poll) and the cursor to poll with next */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventListResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description Problem: cursor-expired */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listArtifacts: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                data_kind?: string;
                data_format?: string;
                run_id?: string;
                /** @description Also list each archive as a whole: one virtual item (port *, data_kind archive, data_format zip) per artifact */
                include_archive?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of your artifacts */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArtifactListResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    uploadArtifact: {
        parameters: {
            query?: never;
            header?: {
                /** @description Required for API-key callers: a new UUID per distinct request, the same on each retry */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The file (required). Up to 512 MiB.
                     */
                    file: Blob;
                    /** @description file: stored as a one-record artifact (port `file`); molecules: a .smi, .csv/.tsv (with a `smiles` column) or .sdf parsed into a molecule set (port `molecules`, one record per molecule, unparseable entries in manifest.warnings); archive: a zip with a manifest.json, validated and stored as sent */
                    mode: "file" | "molecules" | "archive";
                    name?: string | null;
                    data_kind?: string | null;
                    data_format?: string | null;
                };
            };
        };
        responses: {
            /** @description The stored artifact and its manifest */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArtifactResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getArtifactUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Storage used and the quota */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArtifactUsage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getArtifact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                artifact_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The artifact and its manifest */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArtifactResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteArtifact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                artifact_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The artifact is deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description Problem: the artifact holds the weights of one of your models (delete the model with DELETE /user-models/mpnn) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    downloadArtifact: {
        parameters: {
            query?: {
                /** @description Serve this record’s primary member instead of the whole zip */
                record?: string;
                /** @description With record: the port of the record (needed when the record id repeats across ports). Alone: that port, as its one record’s primary file, or a zip of its records (manifest.json with that port alone) */
                port?: string;
            };
            header?: {
                /** @description bytes=start-end, bytes=start- or bytes=-suffix */
                range?: string;
            };
            path: {
                artifact_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A zip (application/zip) or a record member with its own media type */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": Blob;
                };
            };
            /** @description The requested byte range (Content-Range) */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": Blob;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description Range not satisfiable (Content-Range: bytes *\/size) */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listUserModels: {
        parameters: {
            query?: {
                model_name?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Your MPNN models by name, with their cards */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetMPNNModelsResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteUserModel: {
        parameters: {
            query: {
                model_name: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The model and its weights are deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listPublicModels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The public models with their model cards */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublicModelsResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    depictMolecules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DepictRequest"];
            };
        };
        responses: {
            /** @description An SVG drawing per molecule, in input order */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DepictResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    depictReactions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DepictReactionsRequest"];
            };
        };
        responses: {
            /** @description An SVG drawing per reaction, in input order */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DepictResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    describeMolecules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DescribeRequest"];
            };
        };
        responses: {
            /** @description The properties of each molecule, in input order */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DescribeResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    estimateJob: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["JobEstimateRequest"];
            };
        };
        responses: {
            /** @description The cost a submit would reserve, its expected runtime and the assumptions behind it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobEstimateResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    submitJob: {
        parameters: {
            query?: never;
            header?: {
                /** @description Required for API-key callers: a new UUID per distinct request, the same on each retry */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["JobSubmitRequest"];
            };
        };
        responses: {
            /** @description The job is queued: its process id */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        process_id: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Problem insufficient-funds: the wallet cannot cover the estimate */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            403: components["responses"]["Forbidden"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    submitJobs: {
        parameters: {
            query?: never;
            header?: {
                /** @description Required for API-key callers: a new UUID per distinct request, the same on each retry */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["JobSubmitMultipleRequest"];
            };
        };
        responses: {
            /** @description Every job is queued: their process ids, in request order */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @default [] */
                        process_ids: string[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Problem insufficient-funds: the wallet cannot cover the estimates */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            403: components["responses"]["Forbidden"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listJobs: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                /** @description Comma-separated statuses */
                status?: ("queued" | "dispatched" | "running" | "completed" | "error" | "cancelled")[];
                /** @description Only jobs of this type (properties, depict, similarity_search, substructure_search, cluster, filter, profile_table, wait, mpnn_train, mpnn_predict, optimize, singlepoint, docking, pose_check, pockets, conformers, frequencies, scan, properties_qm, rerank, pka, tautomers, bde, reactivity, receptor_prepare) */
                job_type?: string;
                /** @description Matches job name or process id, case-insensitive */
                q?: string;
                /** @description A field with optional - prefix: created_at, job_name, status, runtime_seconds, charged_amount (default -created_at) */
                sort?: "created_at" | "job_name" | "status" | "runtime_seconds" | "charged_amount" | "-created_at" | "-job_name" | "-status" | "-runtime_seconds" | "-charged_amount";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of your jobs, newest first unless sorted otherwise */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListJobsResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getJobInfo: {
        parameters: {
            query: {
                process_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job: its request, state, times, costs and limits */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobInfoResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getJobStatus: {
        parameters: {
            query: {
                process_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Its status, message and progress */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobStatusResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getJobResult: {
        parameters: {
            query: {
                process_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job's result document, as its job type gives it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobResult"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description Problem job-not-finished: the job is queued, dispatched or running (wait for its event); or http-409: it ended in error or was cancelled and has no result */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getJobResults: {
        parameters: {
            query: {
                /** @description Comma-separated process ids, at most 50 */
                process_ids: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Each process id to its result document, or to the problem GET /jobs/result would answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: components["schemas"]["JobResult"] | components["schemas"]["Problem"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    cancelJob: {
        parameters: {
            query: {
                process_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job is cancelled */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description Problem job-already-finished: the job had ended */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteJob: {
        parameters: {
            query: {
                process_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job and its result are deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description Problem job-active: the job has not ended (cancel it first) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listEngines: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The engines and the job types this server's workers can run */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EngineList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    lookupCompounds: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CompoundsLookupRequest"];
            };
        };
        responses: {
            /** @description `{attribution, compounds: CompoundItem[]}` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompoundsLookupResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            /** @description Problem `source-disabled`: the source is disabled on this server */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    lookupBioactivity: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BioactivityLookupRequest"];
            };
        };
        responses: {
            /** @description LookupResponse: `{attribution, results: LookupItem[]}`, one item per query */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BioactivityLookupResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            /** @description Problem `source-disabled`: the source is disabled on this server */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    lookupTargets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TargetsLookupRequest"];
            };
        };
        responses: {
            /** @description LookupResponse: `{attribution, results: LookupItem[]}`, one item per query */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TargetsLookupResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            /** @description Problem `source-disabled`: the source is disabled on this server */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    lookupProteins: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProteinsLookupRequest"];
            };
        };
        responses: {
            /** @description LookupResponse: `{attribution, results: LookupItem[]}`, one item per query */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProteinsLookupResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            /** @description Problem `source-disabled`: the source is disabled on this server */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    lookupStructures: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StructuresLookupRequest"];
            };
        };
        responses: {
            /** @description LookupResponse: `{attribution, results: LookupItem[]}`, one item per query */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StructuresLookupResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            /** @description Problem `source-disabled`: the source is disabled on this server */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    lookupProperties: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PropertiesLookupRequest"];
            };
        };
        responses: {
            /** @description LookupResponse: `{attribution, results: LookupItem[]}`, one item per query */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PropertiesLookupResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            /** @description Problem `source-disabled`: the source is disabled on this server */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listPapers: {
        parameters: {
            query?: {
                /** @description Words to find in the title, authors, venue, DOI or id (all must match, any case) */
                q?: string;
                topic?: "databases" | "data-sets" | "descriptors" | "docking" | "drug-likeness" | "clustering" | "fingerprints" | "force-fields" | "identifiers" | "machine-learning" | "quantum-chemistry" | "similarity" | "software" | "solvation" | "structural-alerts" | "substructure";
                /** @description A Crucible method, e.g. clogp, butina, morgan */
                method?: string;
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The matching references */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaperList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    citeResult: {
        parameters: {
            query?: {
                /** @description A job of yours, or one of your asynchronous inference requests (its request_id) */
                process_id?: string;
                /** @description A workflow run of yours: the methods of every step of it */
                workflow_run_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The references behind the result, with a BibTeX bundle */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CiteResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getPaper: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                paper_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The reference with BibTeX, RIS and a formatted citation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaperDetail"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description This month's calls against the allowance, storage, keys, jobs and runs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsageResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listUtilities: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tools: each one's input schema and limits */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UtilityCatalog"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    runUtility: {
        parameters: {
            query?: never;
            header?: {
                /** @description Required for API-key callers: a new UUID per distinct request, the same on each retry */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UtilityRunRequest"];
            };
        };
        responses: {
            /** @description The tool's result (or the artifact holding it) and the calls counted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UtilityRunResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    submitUtilityRequest: {
        parameters: {
            query?: never;
            header?: {
                /** @description Required for API-key callers: a new UUID per distinct request, the same on each retry */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UtilitySubmitRequest"];
            };
        };
        responses: {
            /** @description The utility request is queued: its id */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        request_id: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listUtilityRequests: {
        parameters: {
            query?: {
                /** @description Comma-separated statuses (queued, dispatched, running, completed, error, cancelled) */
                status?: ("queued" | "dispatched" | "running" | "completed" | "error" | "cancelled")[];
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of your asynchronous utility requests */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UtilityRequestList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getUtilityRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id POST /utilities/submit returned */
                request_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An asynchronous request: its state, progress and, once completed, its result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UtilityRequest"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteUtilityRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id POST /utilities/submit returned */
                request_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A running request is cancelled; an ended one is deleted with its result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        request_id: string;
                        status: "cancelled" | "deleted";
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listInferenceModels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The models you can call */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InferenceModels"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    predict: {
        parameters: {
            query?: never;
            header?: {
                /** @description Required for API-key callers: a new UUID per distinct request, the same on each retry */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PredictRequest"];
            };
        };
        responses: {
            /** @description A prediction per molecule, in input order */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PredictResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    submitInferenceRequest: {
        parameters: {
            query?: never;
            header?: {
                /** @description Required for API-key callers: a new UUID per distinct request, the same on each retry */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InferenceSubmitRequest"];
            };
        };
        responses: {
            /** @description The prediction request is queued: its id */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        request_id: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listInferenceRequests: {
        parameters: {
            query?: {
                /** @description Comma-separated statuses (queued, dispatched, running, completed, error, cancelled) */
                status?: ("queued" | "dispatched" | "running" | "completed" | "error" | "cancelled")[];
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of your asynchronous prediction requests */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InferenceRequestList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getInferenceRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                request_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request's status, progress and counts */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InferenceRequest"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteInferenceRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                request_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A running request is cancelled; an ended one is deleted with its result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        request_id: string;
                        status: "cancelled" | "deleted";
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getInferenceResult: {
        parameters: {
            query?: {
                format?: "csv" | "json";
                /** @description JSON page size */
                limit?: number;
                offset?: number;
            };
            header?: never;
            path: {
                request_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/csv (smiles,prediction,uncertainty,in_domain,error; from a molecule set, then id,name: the record id and name) or, with format=json, an InferenceResultPage */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                    "application/json": components["schemas"]["InferenceResultPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    validateWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkflowValidateRequest"];
            };
        };
        responses: {
            /** @description The verdict: every error and warning located in the spec, and a step order */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowValidation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    estimateWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkflowEstimateRequest"];
            };
        };
        responses: {
            /** @description The run's cost and runtime, per step and in total */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowEstimate"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listWorkflowTemplates: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The built-in templates with their specs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowTemplates"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listWorkflows: {
        parameters: {
            query?: {
                /** @description Case-insensitive match on name, description or id */
                q?: string;
                /** @description updated_at (default, newest first), created_at or name; prefix - for descending */
                sort?: "updated_at" | "created_at" | "name" | "-updated_at" | "-created_at" | "-name";
                limit?: number;
                offset?: number;
                /** @description true: your deleted definitions (restorable for 30 days) instead */
                deleted?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the definitions you own or that are shared with you */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    createWorkflow: {
        parameters: {
            query?: never;
            header?: {
                /** @description Required for API-key callers: a new UUID per distinct request, the same on each retry */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkflowSaveRequest"];
            };
        };
        responses: {
            /** @description The saved definition (version 1) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowDefinition"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getSharedWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                share_token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The definition shared by the link */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowDefinition"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getWorkflow: {
        parameters: {
            query?: {
                version?: number;
            };
            header?: never;
            path: {
                workflow_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The definition (its latest version, or the one asked for) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowDefinition"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    updateWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workflow_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkflowUpdateRequest"];
            };
        };
        responses: {
            /** @description The definition at its new version */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowDefinition"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workflow_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The definition is deleted (restorable for 30 days) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    restoreWorkflow: {
        parameters: {
            query?: never;
            header?: {
                /** @description Required for API-key callers: a new UUID per distinct request, the same on each retry */
                "idempotency-key"?: string;
            };
            path: {
                workflow_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkflowRestoreRequest"];
            };
        };
        responses: {
            /** @description The definition, undeleted or at a new version copied from the old one */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowDefinition"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    forkWorkflow: {
        parameters: {
            query?: never;
            header?: {
                /** @description Required for API-key callers: a new UUID per distinct request, the same on each retry */
                "idempotency-key"?: string;
            };
            path: {
                workflow_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkflowForkRequest"];
            };
        };
        responses: {
            /** @description The new definition, forked from the source */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowDefinition"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listWorkflowVersions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workflow_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The version history */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowVersions"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    shareWorkflow: {
        parameters: {
            query?: never;
            header?: {
                /** @description Required for API-key callers: a new UUID per distinct request, the same on each retry */
                "idempotency-key"?: string;
            };
            path: {
                workflow_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkflowShareRequest"];
            };
        };
        responses: {
            /** @description The share (a link share carries its token, shown this once) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowShare"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listWorkflowShares: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workflow_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The shares of the definition */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowShares"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    revokeWorkflowShare: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workflow_id: string;
                share_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The share is revoked at once */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listWorkflowRuns: {
        parameters: {
            query?: {
                /** @description Comma-separated: queued, running, completed, failed, cancelled */
                status?: ("queued" | "running" | "completed" | "failed" | "cancelled")[];
                workflow_id?: string;
                /** @description Case-insensitive match on the run name or id */
                q?: string;
                /** @description created_at (default, newest first), status, name or charged_amount; prefix - for descending */
                sort?: "created_at" | "status" | "name" | "charged_amount" | "-created_at" | "-status" | "-name" | "-charged_amount";
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of your runs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowRunList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    startWorkflowRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description Required for API-key callers: a new UUID per distinct request, the same on each retry */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkflowRunStartRequest"];
            };
        };
        responses: {
            /** @description The run, started: its estimate is reserved */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowRun"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getWorkflowRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run with its steps and outputs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowRun"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteWorkflowRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run and its artifacts are deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getWorkflowRunStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run's state and progress */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowRunStatus"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getWorkflowRunStep: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                run_id: string;
                step_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The step: its job, outputs and error */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowRunStep"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getWorkflowRunOutputs: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run's outputs as artifacts */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowRunOutputs"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    cancelWorkflowRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run, cancelled; the runtime used is charged */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowRun"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    rerunWorkflowRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description Required for API-key callers: a new UUID per distinct request, the same on each retry */
                "idempotency-key"?: string;
            };
            path: {
                run_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkflowRerunRequest"];
            };
        };
        responses: {
            /** @description The new run, started: its estimate is reserved */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowRun"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getWorkflowRunGraph: {
        parameters: {
            query?: {
                format?: "svg" | "json" | "mermaid";
            };
            header?: never;
            path: {
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description image/svg+xml, application/json (WorkflowRunGraph) or text/plain (Mermaid) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/svg+xml": string;
                    "application/json": components["schemas"]["WorkflowRunGraph"];
                    "text/plain": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listAssistantSessions: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Your sessions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssistantSessionList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    createAssistantSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AssistantSessionCreate"];
            };
        };
        responses: {
            /** @description The new session */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssistantSession"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getAssistantSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session with its messages and plan cards */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssistantSessionDetail"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteAssistantSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session is deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    renameAssistantSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                session_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AssistantSessionRename"];
            };
        };
        responses: {
            /** @description The session, renamed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssistantSession"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    estimateAssistantTurn: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                session_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AssistantTurnRequest"];
            };
        };
        responses: {
            /** @description The token bounds of a turn and the hold in USD */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssistantTurnEstimate"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listAssistantTurns: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path: {
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session's turns */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssistantTurnList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    startAssistantTurn: {
        parameters: {
            query?: never;
            header?: {
                /** @description Required for API-key callers: a new UUID per distinct request, the same on each retry */
                "idempotency-key"?: string;
            };
            path: {
                session_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AssistantTurnRequest"];
            };
        };
        responses: {
            /** @description The turn is started: stream it by its turn_id */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssistantTurnStarted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    streamAssistantTurn: {
        parameters: {
            query?: {
                /** @description Resume after this event (the Last-Event-ID header wins) */
                after?: number;
            };
            header?: never;
            path: {
                session_id: string;
                turn_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /**
             * @description `text/event-stream`. Each event has an `id` (its number in the turn, from 1), an `event` name and JSON `data`:
             *     - `delta` `{text}`: text of the answer, in order;
             *     - `tool_call` `{call_id, name, arguments}`: the model called a tool;
             *     - `tool_result` `{call_id, name, ok, result}`: its answer (`result.error` `{code, message}` when it failed; depictions carry `svg`);
             *     - `plan` `{plan_id, title, status, expires_at, cost_usd, expected_runtime_sec, steps}`: a plan card to approve or reject;
             *     - `usage` `{input_tokens, output_tokens, cost_usd, hold_usd}`: what the turn used and was debited;
             *     - `done` `{turn_id, status}` (`completed` or `stopped`) or `error` `{turn_id, status, message}`: the last event, after which the stream closes.
             *     Reconnect with `Last-Event-ID` (or `?after=<id>`) to receive the events after that one, from any instance. A comment line `: keep-alive` is sent every 15 s of silence.
             */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": components["schemas"]["AssistantStreamEvent"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getAssistantTurn: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                session_id: string;
                turn_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The turn: status, tokens and cost */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssistantTurn"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    stopAssistantTurn: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                session_id: string;
                turn_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The turn, stopped: the tokens used are debited, the rest released */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssistantTurn"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getAssistantPlan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                plan_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plan card */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssistantPlan"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    approveAssistantPlan: {
        parameters: {
            query?: never;
            header: {
                /** @description Required for every caller, access tokens included: a new UUID per distinct request, the same on each retry */
                "idempotency-key": string;
            };
            path: {
                plan_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The card, now approved, and the workflow run it started */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssistantPlanApproval"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["IdempotencyConflict"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    rejectAssistantPlan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                plan_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plan card, rejected */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssistantPlan"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listAssistantModels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The language models and their token prices */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssistantModels"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
}
