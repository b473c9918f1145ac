-- The ssb-jca sample application's broker objects on the portable schema, for H2 and PostgreSQL alike. Idempotent.
-- Run after install.sql. The sample's @Startup bean runs this file itself on H2 and
-- PostgreSQL.
-- SQL Server: see ../sqlserver/sample-install.sql (CREATE MESSAGE TYPE, CREATE CONTRACT, CREATE QUEUE, CREATE SERVICE).

-- Walking skeleton: a request answered on the same conversation.
INSERT INTO ssb.message_type (message_type_name, validation)
    SELECT 'EchoRequest', 'NONE' WHERE NOT EXISTS
    (SELECT 1 FROM ssb.message_type WHERE message_type_name = 'EchoRequest');
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
    SELECT 'EchoService', 'EchoServiceQueue' WHERE NOT EXISTS
    (SELECT 1 FROM ssb.service WHERE service_name = 'EchoService');
INSERT INTO ssb.service_contract (service_name, contract_name)
    SELECT 'EchoService', 'EchoContract' WHERE NOT EXISTS (SELECT 1 FROM ssb.service_contract
    WHERE service_name = 'EchoService' AND contract_name = 'EchoContract');

-- Seed 000, priority: requests that take long to process, and clients that may ask for their conversation to go first
-- (SetPriority <priority>n</priority> on the same conversation). No front-end service: the adapter's readers find the
-- SetPriority messages in the queue themselves (activation property priorityMessageType).
INSERT INTO ssb.message_type (message_type_name, validation)
    SELECT 'LongWorkloadRequest', 'WELL_FORMED_XML' WHERE NOT EXISTS
    (SELECT 1 FROM ssb.message_type WHERE message_type_name = 'LongWorkloadRequest');
INSERT INTO ssb.message_type (message_type_name, validation)
    SELECT 'SetPriority', 'WELL_FORMED_XML' WHERE NOT EXISTS
    (SELECT 1 FROM ssb.message_type WHERE message_type_name = 'SetPriority');
INSERT INTO ssb.message_type (message_type_name, validation)
    SELECT 'Response', 'WELL_FORMED_XML' WHERE NOT EXISTS
    (SELECT 1 FROM ssb.message_type WHERE message_type_name = 'Response');
INSERT INTO ssb.contract (contract_name)
    SELECT 'RequestWithPriority' WHERE NOT EXISTS
    (SELECT 1 FROM ssb.contract WHERE contract_name = 'RequestWithPriority');
INSERT INTO ssb.contract_message_type (contract_name, message_type_name, sent_by)
    SELECT 'RequestWithPriority', 'LongWorkloadRequest', 'INITIATOR' WHERE NOT EXISTS
    (SELECT 1 FROM ssb.contract_message_type
    WHERE contract_name = 'RequestWithPriority' AND message_type_name = 'LongWorkloadRequest');
INSERT INTO ssb.contract_message_type (contract_name, message_type_name, sent_by)
    SELECT 'RequestWithPriority', 'SetPriority', 'INITIATOR' WHERE NOT EXISTS (SELECT 1 FROM ssb.contract_message_type
    WHERE contract_name = 'RequestWithPriority' AND message_type_name = 'SetPriority');
INSERT INTO ssb.contract_message_type (contract_name, message_type_name, sent_by)
    SELECT 'RequestWithPriority', 'Response', 'TARGET' WHERE NOT EXISTS (SELECT 1 FROM ssb.contract_message_type
    WHERE contract_name = 'RequestWithPriority' AND message_type_name = 'Response');
INSERT INTO ssb.service_queue (queue_name)
    SELECT 'PriorityClientQueue' WHERE NOT EXISTS
    (SELECT 1 FROM ssb.service_queue WHERE queue_name = 'PriorityClientQueue');
INSERT INTO ssb.service_queue (queue_name)
    SELECT 'PriorityServiceQueue' WHERE NOT EXISTS
    (SELECT 1 FROM ssb.service_queue WHERE queue_name = 'PriorityServiceQueue');
INSERT INTO ssb.service (service_name, queue_name)
    SELECT 'PriorityClientService', 'PriorityClientQueue' WHERE NOT EXISTS
    (SELECT 1 FROM ssb.service WHERE service_name = 'PriorityClientService');
INSERT INTO ssb.service (service_name, queue_name)
    SELECT 'PriorityService', 'PriorityServiceQueue' WHERE NOT EXISTS
    (SELECT 1 FROM ssb.service WHERE service_name = 'PriorityService');
INSERT INTO ssb.service_contract (service_name, contract_name)
    SELECT 'PriorityService', 'RequestWithPriority' WHERE NOT EXISTS (SELECT 1 FROM ssb.service_contract
    WHERE service_name = 'PriorityService' AND contract_name = 'RequestWithPriority');

-- Seeds 001 and 002, parallel task scheduling: a scheduler is one dialog from AsyncInitiatorService to
-- AsyncTargetService; tasks go out as AsyncSent, and each finished task comes back as AsyncDone.
INSERT INTO ssb.message_type (message_type_name, validation)
    SELECT 'AsyncSent', 'WELL_FORMED_XML' WHERE NOT EXISTS
    (SELECT 1 FROM ssb.message_type WHERE message_type_name = 'AsyncSent');
INSERT INTO ssb.message_type (message_type_name, validation)
    SELECT 'AsyncDone', 'WELL_FORMED_XML' WHERE NOT EXISTS
    (SELECT 1 FROM ssb.message_type WHERE message_type_name = 'AsyncDone');
INSERT INTO ssb.contract (contract_name)
    SELECT 'AsyncContract' WHERE NOT EXISTS (SELECT 1 FROM ssb.contract WHERE contract_name = 'AsyncContract');
INSERT INTO ssb.contract_message_type (contract_name, message_type_name, sent_by)
    SELECT 'AsyncContract', 'AsyncSent', 'INITIATOR' WHERE NOT EXISTS (SELECT 1 FROM ssb.contract_message_type
    WHERE contract_name = 'AsyncContract' AND message_type_name = 'AsyncSent');
INSERT INTO ssb.contract_message_type (contract_name, message_type_name, sent_by)
    SELECT 'AsyncContract', 'AsyncDone', 'TARGET' WHERE NOT EXISTS (SELECT 1 FROM ssb.contract_message_type
    WHERE contract_name = 'AsyncContract' AND message_type_name = 'AsyncDone');
INSERT INTO ssb.service_queue (queue_name)
    SELECT 'AsyncInitiatorQueue' WHERE NOT EXISTS
    (SELECT 1 FROM ssb.service_queue WHERE queue_name = 'AsyncInitiatorQueue');
INSERT INTO ssb.service_queue (queue_name)
    SELECT 'AsyncTargetQueue' WHERE NOT EXISTS (SELECT 1 FROM ssb.service_queue WHERE queue_name = 'AsyncTargetQueue');
INSERT INTO ssb.service (service_name, queue_name)
    SELECT 'AsyncInitiatorService', 'AsyncInitiatorQueue' WHERE NOT EXISTS
    (SELECT 1 FROM ssb.service WHERE service_name = 'AsyncInitiatorService');
INSERT INTO ssb.service (service_name, queue_name)
    SELECT 'AsyncTargetService', 'AsyncTargetQueue' WHERE NOT EXISTS
    (SELECT 1 FROM ssb.service WHERE service_name = 'AsyncTargetService');
INSERT INTO ssb.service_contract (service_name, contract_name)
    SELECT 'AsyncTargetService', 'AsyncContract' WHERE NOT EXISTS (SELECT 1 FROM ssb.service_contract
    WHERE service_name = 'AsyncTargetService' AND contract_name = 'AsyncContract');

-- Seeds 003 and 004, exactly-once work retrieval: work items are messages on a few long-lived dialogs ("channels")
-- from WorkProducerService to WorkService; many readers drain WorkQueue.
INSERT INTO ssb.message_type (message_type_name, validation)
    SELECT 'WorkItem', 'NONE' WHERE NOT EXISTS (SELECT 1 FROM ssb.message_type WHERE message_type_name = 'WorkItem');
INSERT INTO ssb.contract (contract_name)
    SELECT 'WorkContract' WHERE NOT EXISTS (SELECT 1 FROM ssb.contract WHERE contract_name = 'WorkContract');
INSERT INTO ssb.contract_message_type (contract_name, message_type_name, sent_by)
    SELECT 'WorkContract', 'WorkItem', 'INITIATOR' WHERE NOT EXISTS (SELECT 1 FROM ssb.contract_message_type
    WHERE contract_name = 'WorkContract' AND message_type_name = 'WorkItem');
INSERT INTO ssb.service_queue (queue_name)
    SELECT 'WorkProducerQueue' WHERE NOT EXISTS
    (SELECT 1 FROM ssb.service_queue WHERE queue_name = 'WorkProducerQueue');
INSERT INTO ssb.service_queue (queue_name)
    SELECT 'WorkQueue' WHERE NOT EXISTS (SELECT 1 FROM ssb.service_queue WHERE queue_name = 'WorkQueue');
INSERT INTO ssb.service (service_name, queue_name)
    SELECT 'WorkProducerService', 'WorkProducerQueue' WHERE NOT EXISTS
    (SELECT 1 FROM ssb.service WHERE service_name = 'WorkProducerService');
INSERT INTO ssb.service (service_name, queue_name)
    SELECT 'WorkService', 'WorkQueue' WHERE NOT EXISTS (SELECT 1 FROM ssb.service WHERE service_name = 'WorkService');
INSERT INTO ssb.service_contract (service_name, contract_name)
    SELECT 'WorkService', 'WorkContract' WHERE NOT EXISTS (SELECT 1 FROM ssb.service_contract
    WHERE service_name = 'WorkService' AND contract_name = 'WorkContract');

-- The sample's own tables, written in the same transactions as the broker verbs
-- (ServiceBrokerConnection.jdbcConnection).

-- A task scheduler (seeds 001/002): its dialog's initiator handle, who opened it, how many of its tasks may run at
-- once. Its row is also the lock that serialises the decisions about which of its tasks go out next.
CREATE TABLE IF NOT EXISTS sample_scheduler (
    scheduler_id VARCHAR(36) NOT NULL PRIMARY KEY,
    caller VARCHAR(128) NOT NULL,
    concurrency INT NOT NULL,
    state VARCHAR(8) NOT NULL,
    submitted INT NOT NULL,
    opened_at TIMESTAMP NOT NULL,
    closed_at TIMESTAMP
);

-- The execution log (seed 001's ExecutionLog): one row per task. state: PENDING (submitted, held back by its stage or
-- the concurrency limit), SENT (AsyncSent is on the queue), RUNNING, ENDED, CANCELLED (the scheduler closed first).
CREATE TABLE IF NOT EXISTS sample_execution_log (
    scheduler_id VARCHAR(36) NOT NULL,
    task_no INT NOT NULL,
    caller VARCHAR(128) NOT NULL,
    stage INT NOT NULL,
    task VARCHAR(256) NOT NULL,
    work_millis INT NOT NULL,
    state VARCHAR(9) NOT NULL,
    reader VARCHAR(256),
    submitted_at TIMESTAMP NOT NULL,
    sent_at TIMESTAMP,
    started_at TIMESTAMP,
    ended_at TIMESTAMP,
    synced_at TIMESTAMP,
    outcome VARCHAR(1000),
    PRIMARY KEY (scheduler_id, task_no)
);
CREATE INDEX IF NOT EXISTS sample_execution_log_next ON sample_execution_log (scheduler_id, state, stage, task_no);
CREATE INDEX IF NOT EXISTS sample_execution_log_state ON sample_execution_log (state);

-- Every processing of a work item (seeds 003/004), written in the transaction that received it. No unique key on
-- purpose: a second processing of an item would show up as a second row.
CREATE TABLE IF NOT EXISTS sample_work_log (
    run_id VARCHAR(36) NOT NULL,
    item_id INT NOT NULL,
    reader VARCHAR(256) NOT NULL,
    processed_at TIMESTAMP NOT NULL
);
CREATE INDEX IF NOT EXISTS sample_work_log_run ON sample_work_log (run_id, item_id);
