-- Removes the ssb-jca portable broker schema from a PostgreSQL or H2 database, with every queue, conversation and message.
DROP SCHEMA IF EXISTS ssb CASCADE;
