-- Removes the ssb-jca portable broker schema from an H2 database, with every queue, conversation and message.
DROP SCHEMA IF EXISTS ssb CASCADE;
