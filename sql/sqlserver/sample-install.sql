-- The sample application's Service Broker objects and tables: the walking skeleton (EchoService), seed 000's priority
-- service, seeds 001/002's task scheduler and seeds 003/004's work queue. Idempotent: every object is created only
-- when the catalog does not have it. Run it after install.sql, in a database with Service Broker enabled. Batches are
-- separated by GO lines.
-- https://learn.microsoft.com/sql/t-sql/statements/create-message-type-transact-sql
-- https://learn.microsoft.com/sql/t-sql/statements/create-contract-transact-sql
-- https://learn.microsoft.com/sql/t-sql/statements/create-queue-transact-sql
-- https://learn.microsoft.com/sql/t-sql/statements/create-service-transact-sql
-- https://learn.microsoft.com/sql/t-sql/statements/create-table-transact-sql

-- Walking skeleton: a client service sends EchoRequest to EchoService, which replies EchoReply.
IF NOT EXISTS (SELECT 1 FROM sys.service_message_types WHERE name = N'EchoRequest')
    CREATE MESSAGE TYPE [EchoRequest] VALIDATION = NONE;
GO

IF NOT EXISTS (SELECT 1 FROM sys.service_message_types WHERE name = N'EchoReply')
    CREATE MESSAGE TYPE [EchoReply] VALIDATION = NONE;
GO

IF NOT EXISTS (SELECT 1 FROM sys.service_contracts WHERE name = N'EchoContract')
    CREATE CONTRACT [EchoContract] ([EchoRequest] SENT BY INITIATOR, [EchoReply] SENT BY TARGET);
GO

-- Poison message handling off: the adapter dead-letters poison messages itself.
IF NOT EXISTS (SELECT 1 FROM sys.service_queues WHERE object_id = OBJECT_ID(N'[dbo].[EchoClientQueue]'))
    CREATE QUEUE [dbo].[EchoClientQueue] WITH STATUS = ON, RETENTION = OFF, POISON_MESSAGE_HANDLING (STATUS = OFF);
GO

IF NOT EXISTS (SELECT 1 FROM sys.service_queues WHERE object_id = OBJECT_ID(N'[dbo].[EchoServiceQueue]'))
    CREATE QUEUE [dbo].[EchoServiceQueue] WITH STATUS = ON, RETENTION = OFF, POISON_MESSAGE_HANDLING (STATUS = OFF);
GO

-- No contract: the client service only initiates dialogs.
IF NOT EXISTS (SELECT 1 FROM sys.services WHERE name = N'EchoClientService')
    CREATE SERVICE [EchoClientService] ON QUEUE [dbo].[EchoClientQueue];
GO

IF NOT EXISTS (SELECT 1 FROM sys.services WHERE name = N'EchoService')
    CREATE SERVICE [EchoService] ON QUEUE [dbo].[EchoServiceQueue] ([EchoContract]);
GO

-- Seed 000, priority: requests that take long, and clients that may ask for their conversation to go first
-- (SetPriority <priority>n</priority> on the same conversation). No front-end service: the adapter's readers find
-- the SetPriority messages in the queue themselves (activation property priorityMessageType).
IF NOT EXISTS (SELECT 1 FROM sys.service_message_types WHERE name = N'LongWorkloadRequest')
    CREATE MESSAGE TYPE [LongWorkloadRequest] VALIDATION = WELL_FORMED_XML;
GO

IF NOT EXISTS (SELECT 1 FROM sys.service_message_types WHERE name = N'SetPriority')
    CREATE MESSAGE TYPE [SetPriority] VALIDATION = WELL_FORMED_XML;
GO

IF NOT EXISTS (SELECT 1 FROM sys.service_message_types WHERE name = N'Response')
    CREATE MESSAGE TYPE [Response] VALIDATION = WELL_FORMED_XML;
GO

IF NOT EXISTS (SELECT 1 FROM sys.service_contracts WHERE name = N'RequestWithPriority')
    CREATE CONTRACT [RequestWithPriority] ([LongWorkloadRequest] SENT BY INITIATOR, [SetPriority] SENT BY INITIATOR,
        [Response] SENT BY TARGET);
GO

IF NOT EXISTS (SELECT 1 FROM sys.service_queues WHERE object_id = OBJECT_ID(N'[dbo].[PriorityClientQueue]'))
    CREATE QUEUE [dbo].[PriorityClientQueue] WITH STATUS = ON, RETENTION = OFF, POISON_MESSAGE_HANDLING (STATUS = OFF);
GO

IF NOT EXISTS (SELECT 1 FROM sys.service_queues WHERE object_id = OBJECT_ID(N'[dbo].[PriorityServiceQueue]'))
    CREATE QUEUE [dbo].[PriorityServiceQueue] WITH STATUS = ON, RETENTION = OFF, POISON_MESSAGE_HANDLING (STATUS = OFF);
GO

IF NOT EXISTS (SELECT 1 FROM sys.services WHERE name = N'PriorityClientService')
    CREATE SERVICE [PriorityClientService] ON QUEUE [dbo].[PriorityClientQueue];
GO

IF NOT EXISTS (SELECT 1 FROM sys.services WHERE name = N'PriorityService')
    CREATE SERVICE [PriorityService] ON QUEUE [dbo].[PriorityServiceQueue] ([RequestWithPriority]);
GO

-- Seeds 001 and 002, parallel task scheduling: a scheduler is one dialog from AsyncInitiatorService to
-- AsyncTargetService; tasks go out as AsyncSent, and each finished task comes back as AsyncDone.
IF NOT EXISTS (SELECT 1 FROM sys.service_message_types WHERE name = N'AsyncSent')
    CREATE MESSAGE TYPE [AsyncSent] VALIDATION = WELL_FORMED_XML;
GO

IF NOT EXISTS (SELECT 1 FROM sys.service_message_types WHERE name = N'AsyncDone')
    CREATE MESSAGE TYPE [AsyncDone] VALIDATION = WELL_FORMED_XML;
GO

IF NOT EXISTS (SELECT 1 FROM sys.service_contracts WHERE name = N'AsyncContract')
    CREATE CONTRACT [AsyncContract] ([AsyncSent] SENT BY INITIATOR, [AsyncDone] SENT BY TARGET);
GO

IF NOT EXISTS (SELECT 1 FROM sys.service_queues WHERE object_id = OBJECT_ID(N'[dbo].[AsyncInitiatorQueue]'))
    CREATE QUEUE [dbo].[AsyncInitiatorQueue] WITH STATUS = ON, RETENTION = OFF, POISON_MESSAGE_HANDLING (STATUS = OFF);
GO

IF NOT EXISTS (SELECT 1 FROM sys.service_queues WHERE object_id = OBJECT_ID(N'[dbo].[AsyncTargetQueue]'))
    CREATE QUEUE [dbo].[AsyncTargetQueue] WITH STATUS = ON, RETENTION = OFF, POISON_MESSAGE_HANDLING (STATUS = OFF);
GO

IF NOT EXISTS (SELECT 1 FROM sys.services WHERE name = N'AsyncInitiatorService')
    CREATE SERVICE [AsyncInitiatorService] ON QUEUE [dbo].[AsyncInitiatorQueue];
GO

IF NOT EXISTS (SELECT 1 FROM sys.services WHERE name = N'AsyncTargetService')
    CREATE SERVICE [AsyncTargetService] ON QUEUE [dbo].[AsyncTargetQueue] ([AsyncContract]);
GO

-- Seeds 003 and 004, exactly-once work retrieval: work items are messages on a few long-lived dialogs ("channels")
-- from WorkProducerService to WorkService; many readers drain WorkQueue.
IF NOT EXISTS (SELECT 1 FROM sys.service_message_types WHERE name = N'WorkItem')
    CREATE MESSAGE TYPE [WorkItem] VALIDATION = NONE;
GO

IF NOT EXISTS (SELECT 1 FROM sys.service_contracts WHERE name = N'WorkContract')
    CREATE CONTRACT [WorkContract] ([WorkItem] SENT BY INITIATOR);
GO

IF NOT EXISTS (SELECT 1 FROM sys.service_queues WHERE object_id = OBJECT_ID(N'[dbo].[WorkProducerQueue]'))
    CREATE QUEUE [dbo].[WorkProducerQueue] WITH STATUS = ON, RETENTION = OFF, POISON_MESSAGE_HANDLING (STATUS = OFF);
GO

IF NOT EXISTS (SELECT 1 FROM sys.service_queues WHERE object_id = OBJECT_ID(N'[dbo].[WorkQueue]'))
    CREATE QUEUE [dbo].[WorkQueue] WITH STATUS = ON, RETENTION = OFF, POISON_MESSAGE_HANDLING (STATUS = OFF);
GO

IF NOT EXISTS (SELECT 1 FROM sys.services WHERE name = N'WorkProducerService')
    CREATE SERVICE [WorkProducerService] ON QUEUE [dbo].[WorkProducerQueue];
GO

IF NOT EXISTS (SELECT 1 FROM sys.services WHERE name = N'WorkService')
    CREATE SERVICE [WorkService] ON QUEUE [dbo].[WorkQueue] ([WorkContract]);
GO

-- The sample's own tables, written in the same transactions as the broker verbs. The same columns as
-- ../portable/sample-install.sql.

-- A task scheduler (seeds 001/002): its dialog's initiator handle, who opened it, how many of its tasks may run at
-- once. Its row is also the lock that serialises the decisions about which of its tasks go out next.
IF OBJECT_ID(N'[dbo].[sample_scheduler]', N'U') IS NULL
    CREATE TABLE [dbo].[sample_scheduler] (
        scheduler_id VARCHAR(36) NOT NULL PRIMARY KEY,
        caller NVARCHAR(128) NOT NULL,
        concurrency INT NOT NULL,
        state VARCHAR(8) NOT NULL,
        submitted INT NOT NULL,
        opened_at DATETIME2 NOT NULL,
        closed_at DATETIME2 NULL
    );
GO

-- The execution log (seed 001's ExecutionLog): one row per task. state: PENDING, SENT, RUNNING, ENDED, CANCELLED.
IF OBJECT_ID(N'[dbo].[sample_execution_log]', N'U') IS NULL
    CREATE TABLE [dbo].[sample_execution_log] (
        scheduler_id VARCHAR(36) NOT NULL,
        task_no INT NOT NULL,
        caller NVARCHAR(128) NOT NULL,
        stage INT NOT NULL,
        task NVARCHAR(256) NOT NULL,
        work_millis INT NOT NULL,
        state VARCHAR(9) NOT NULL,
        reader NVARCHAR(256) NULL,
        submitted_at DATETIME2 NOT NULL,
        sent_at DATETIME2 NULL,
        started_at DATETIME2 NULL,
        ended_at DATETIME2 NULL,
        synced_at DATETIME2 NULL,
        outcome NVARCHAR(1000) NULL,
        PRIMARY KEY (scheduler_id, task_no)
    );
GO

IF NOT EXISTS (SELECT 1 FROM sys.indexes
    WHERE name = N'sample_execution_log_next' AND object_id = OBJECT_ID(N'[dbo].[sample_execution_log]'))
    CREATE INDEX [sample_execution_log_next] ON [dbo].[sample_execution_log] (scheduler_id, state, stage, task_no);
GO

IF NOT EXISTS (SELECT 1 FROM sys.indexes
    WHERE name = N'sample_execution_log_state' AND object_id = OBJECT_ID(N'[dbo].[sample_execution_log]'))
    CREATE INDEX [sample_execution_log_state] ON [dbo].[sample_execution_log] (state);
GO

-- Every processing of a work item (seeds 003/004), written in the transaction that received it. No unique key on
-- purpose: a second processing of an item would show up as a second row.
IF OBJECT_ID(N'[dbo].[sample_work_log]', N'U') IS NULL
    CREATE TABLE [dbo].[sample_work_log] (
        run_id VARCHAR(36) NOT NULL,
        item_id INT NOT NULL,
        reader NVARCHAR(256) NOT NULL,
        processed_at DATETIME2 NOT NULL
    );
GO

IF NOT EXISTS (SELECT 1 FROM sys.indexes
    WHERE name = N'sample_work_log_run' AND object_id = OBJECT_ID(N'[dbo].[sample_work_log]'))
    CREATE INDEX [sample_work_log_run] ON [dbo].[sample_work_log] (run_id, item_id);
GO
