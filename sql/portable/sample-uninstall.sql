-- Removes the ssb-jca sample application's broker objects, with their conversations and messages, and the sample's
-- own tables (H2 and PostgreSQL).
DELETE FROM ssb.message WHERE queue_name IN ('EchoClientQueue', 'EchoServiceQueue', 'PriorityClientQueue',
    'PriorityServiceQueue', 'AsyncInitiatorQueue', 'AsyncTargetQueue', 'WorkProducerQueue', 'WorkQueue');
DELETE FROM ssb.transmission_queue WHERE to_queue_name IN ('EchoClientQueue', 'EchoServiceQueue',
    'PriorityClientQueue', 'PriorityServiceQueue', 'AsyncInitiatorQueue', 'AsyncTargetQueue', 'WorkProducerQueue',
    'WorkQueue');
DELETE FROM ssb.conversation_priority WHERE queue_name IN ('EchoClientQueue', 'EchoServiceQueue',
    'PriorityClientQueue', 'PriorityServiceQueue', 'AsyncInitiatorQueue', 'AsyncTargetQueue', 'WorkProducerQueue',
    'WorkQueue');
DELETE FROM ssb.delivery_attempt WHERE queue_name IN ('EchoClientQueue', 'EchoServiceQueue', 'PriorityClientQueue',
    'PriorityServiceQueue', 'AsyncInitiatorQueue', 'AsyncTargetQueue', 'WorkProducerQueue', 'WorkQueue');
DELETE FROM ssb.conversation_hold WHERE queue_name IN ('EchoClientQueue', 'EchoServiceQueue', 'PriorityClientQueue',
    'PriorityServiceQueue', 'AsyncInitiatorQueue', 'AsyncTargetQueue', 'WorkProducerQueue', 'WorkQueue');
DELETE FROM ssb.dead_letter WHERE queue_name IN ('EchoClientQueue', 'EchoServiceQueue', 'PriorityClientQueue',
    'PriorityServiceQueue', 'AsyncInitiatorQueue', 'AsyncTargetQueue', 'WorkProducerQueue', 'WorkQueue');
DELETE FROM ssb.conversation_endpoint WHERE service_name IN ('EchoClientService', 'EchoService',
    'PriorityClientService', 'PriorityService', 'AsyncInitiatorService', 'AsyncTargetService', 'WorkProducerService',
    'WorkService');
DELETE FROM ssb.conversation_group WHERE queue_name IN ('EchoClientQueue', 'EchoServiceQueue', 'PriorityClientQueue',
    'PriorityServiceQueue', 'AsyncInitiatorQueue', 'AsyncTargetQueue', 'WorkProducerQueue', 'WorkQueue');
DELETE FROM ssb.service_contract WHERE service_name IN ('EchoClientService', 'EchoService', 'PriorityClientService',
    'PriorityService', 'AsyncInitiatorService', 'AsyncTargetService', 'WorkProducerService', 'WorkService');
DELETE FROM ssb.service WHERE service_name IN ('EchoClientService', 'EchoService', 'PriorityClientService',
    'PriorityService', 'AsyncInitiatorService', 'AsyncTargetService', 'WorkProducerService', 'WorkService');
DELETE FROM ssb.service_queue WHERE queue_name IN ('EchoClientQueue', 'EchoServiceQueue', 'PriorityClientQueue',
    'PriorityServiceQueue', 'AsyncInitiatorQueue', 'AsyncTargetQueue', 'WorkProducerQueue', 'WorkQueue');
DELETE FROM ssb.contract_message_type WHERE contract_name IN ('EchoContract', 'RequestWithPriority', 'AsyncContract',
    'WorkContract');
DELETE FROM ssb.contract WHERE contract_name IN ('EchoContract', 'RequestWithPriority', 'AsyncContract',
    'WorkContract');
DELETE FROM ssb.message_type WHERE message_type_name IN ('EchoRequest', 'EchoReply', 'LongWorkloadRequest',
    'SetPriority', 'Response', 'AsyncSent', 'AsyncDone', 'WorkItem');
DROP TABLE IF EXISTS sample_work_log;
DROP TABLE IF EXISTS sample_execution_log;
DROP TABLE IF EXISTS sample_scheduler;
