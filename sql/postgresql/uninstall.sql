-- Removes the ssb-jca portable broker schema from a PostgreSQL database, with every queue, conversation and message.
DROP SCHEMA IF EXISTS ssb CASCADE;
