-- ssb-jca portable broker schema, PostgreSQL only: a version of the declared objects (message types, contracts,
-- queues, services), given a new number by triggers in the transaction of every change to them. The adapter remembers
-- what the checks of BEGIN DIALOG and SEND found in those tables, and its statements use that only while this version
-- is the one read before those checks; any change (also one made by hand) makes them check the tables again.
-- Idempotent: safe to run again. The adapter runs it after install.sql (unless createSchema is false); a DBA who
-- installs by hand runs it too. Without it the adapter checks the declared objects in every such statement (the same
-- results, more work).

-- A sequence, not a counter: a number taken by a transaction that rolls back is never the version again.
CREATE SEQUENCE IF NOT EXISTS ssb.catalog_version_seq;
CREATE TABLE IF NOT EXISTS ssb.catalog_version (
    id INT NOT NULL PRIMARY KEY CHECK (id = 1),
    version BIGINT NOT NULL
);
INSERT INTO ssb.catalog_version (id, version) SELECT 1, 0 WHERE NOT EXISTS (SELECT 1 FROM ssb.catalog_version);

-- SECURITY DEFINER: a role allowed to change a declared object gives the version a new number without rights of its
-- own on ssb.catalog_version and its sequence (the function runs as its owner, with a fixed search_path).
CREATE OR REPLACE FUNCTION ssb.catalog_changed() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    UPDATE ssb.catalog_version SET version = nextval('ssb.catalog_version_seq') WHERE id = 1;
    RETURN NULL;
END
$$;

-- The trigger on each table of declared objects (dropped first: CREATE OR REPLACE TRIGGER needs PostgreSQL 14), enabled
-- ALWAYS so that it also fires for changes applied in replica mode (logical replication's apply workers).
DO $$
DECLARE
    t TEXT;
BEGIN
    FOREACH t IN ARRAY ARRAY['message_type', 'contract', 'contract_message_type', 'service_queue', 'service',
            'service_contract'] LOOP
        EXECUTE format('DROP TRIGGER IF EXISTS catalog_changed ON ssb.%I', t);
        EXECUTE format('CREATE TRIGGER catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ssb.%I'
            ' FOR EACH STATEMENT EXECUTE FUNCTION ssb.catalog_changed()', t);
        EXECUTE format('ALTER TABLE ssb.%I ENABLE ALWAYS TRIGGER catalog_changed', t);
    END LOOP;
END
$$;
