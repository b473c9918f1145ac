-- The ssb-jca sample application's broker objects on the portable schema, for H2 and PostgreSQL alike. Idempotent.
-- Run after ../h2/install.sql or ../postgresql/install.sql. The sample's @Startup bean runs this file itself on H2 and PostgreSQL.
-- SQL Server: see ../sqlserver/sample-install.sql (CREATE MESSAGE TYPE, CREATE CONTRACT, CREATE QUEUE, CREATE SERVICE).

-- Walking skeleton: a request answered on the same conversation.
INSERT INTO ssb.message_type (message_type_name, validation)
    SELECT 'EchoRequest', 'NONE' WHERE NOT EXISTS (SELECT 1 FROM ssb.message_type WHERE message_type_name = 'EchoRequest');
INSERT INTO ssb.message_type (message_type_name, validation)
    SELECT 'EchoReply', 'NONE' WHERE NOT EXISTS (SELECT 1 FROM ssb.message_type WHERE message_type_name = 'EchoReply');
INSERT INTO ssb.contract (contract_name)
    SELECT 'EchoContract' WHERE NOT EXISTS (SELECT 1 FROM ssb.contract WHERE contract_name = 'EchoContract');
INSERT INTO ssb.contract_message_type (contract_name, message_type_name, sent_by)
    SELECT 'EchoContract', 'EchoRequest', 'INITIATOR' WHERE NOT EXISTS (SELECT 1 FROM ssb.contract_message_type
    WHERE contract_name = 'EchoContract' AND message_type_name = 'EchoRequest');
INSERT INTO ssb.contract_message_type (contract_name, message_type_name, sent_by)
    SELECT 'EchoContract', 'EchoReply', 'TARGET' WHERE NOT EXISTS (SELECT 1 FROM ssb.contract_message_type
    WHERE contract_name = 'EchoContract' AND message_type_name = 'EchoReply');
INSERT INTO ssb.service_queue (queue_name)
    SELECT 'EchoClientQueue' WHERE NOT EXISTS (SELECT 1 FROM ssb.service_queue WHERE queue_name = 'EchoClientQueue');
INSERT INTO ssb.service_queue (queue_name)
    SELECT 'EchoServiceQueue' WHERE NOT EXISTS (SELECT 1 FROM ssb.service_queue WHERE queue_name = 'EchoServiceQueue');
INSERT INTO ssb.service (service_name, queue_name)
    SELECT 'EchoClientService', 'EchoClientQueue' WHERE NOT EXISTS (SELECT 1 FROM ssb.service
    WHERE service_name = 'EchoClientService');
INSERT INTO ssb.service (service_name, queue_name)
    SELECT 'EchoService', 'EchoServiceQueue' WHERE NOT EXISTS (SELECT 1 FROM ssb.service WHERE service_name = 'EchoService');
INSERT INTO ssb.service_contract (service_name, contract_name)
    SELECT 'EchoService', 'EchoContract' WHERE NOT EXISTS (SELECT 1 FROM ssb.service_contract
    WHERE service_name = 'EchoService' AND contract_name = 'EchoContract');
