-- Removes the ssb-jca sample application's broker objects, with their conversations and messages (H2 and PostgreSQL).
DELETE FROM ssb.message WHERE queue_name IN ('EchoClientQueue', 'EchoServiceQueue');
DELETE FROM ssb.conversation_endpoint WHERE service_name IN ('EchoClientService', 'EchoService');
DELETE FROM ssb.conversation_group WHERE queue_name IN ('EchoClientQueue', 'EchoServiceQueue');
DELETE FROM ssb.service_contract WHERE service_name IN ('EchoClientService', 'EchoService');
DELETE FROM ssb.service WHERE service_name IN ('EchoClientService', 'EchoService');
DELETE FROM ssb.service_queue WHERE queue_name IN ('EchoClientQueue', 'EchoServiceQueue');
DELETE FROM ssb.contract_message_type WHERE contract_name = 'EchoContract';
DELETE FROM ssb.contract WHERE contract_name = 'EchoContract';
DELETE FROM ssb.message_type WHERE message_type_name IN ('EchoRequest', 'EchoReply');
