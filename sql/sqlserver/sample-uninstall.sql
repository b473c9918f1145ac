-- Removes the sample application's Service Broker objects and tables, dependents first: services, then queues (which
-- drops their messages), contracts and message types, then the sample's tables. Conversations of the sample services
-- are ended WITH CLEANUP first: DROP SERVICE would not refuse them, but it deletes the service's messages from its
-- queue and sends an error to the far side of each open conversation, where ending them WITH CLEANUP removes them
-- without a message to anyone. What refuses DROP SERVICE is a conversation priority (CREATE BROKER PRIORITY) naming
-- the service: the sample creates none. Idempotent. Batches are separated by GO lines.
-- https://learn.microsoft.com/sql/t-sql/statements/end-conversation-transact-sql
-- https://learn.microsoft.com/sql/t-sql/statements/drop-service-transact-sql

DECLARE @handle UNIQUEIDENTIFIER;
DECLARE endpoints CURSOR LOCAL STATIC READ_ONLY FOR
    SELECT e.conversation_handle
    FROM sys.conversation_endpoints AS e
    JOIN sys.services AS s ON s.service_id = e.service_id
    WHERE s.name IN (N'EchoClientService', N'EchoService', N'PriorityClientService', N'PriorityService',
        N'AsyncInitiatorService', N'AsyncTargetService', N'WorkProducerService', N'WorkService');
OPEN endpoints;
FETCH NEXT FROM endpoints INTO @handle;
WHILE @@FETCH_STATUS = 0
BEGIN
    END CONVERSATION @handle WITH CLEANUP;
    FETCH NEXT FROM endpoints INTO @handle;
END;
CLOSE endpoints;
DEALLOCATE endpoints;
GO

IF EXISTS (SELECT 1 FROM sys.services WHERE name = N'EchoClientService')
    DROP SERVICE [EchoClientService];
GO

IF EXISTS (SELECT 1 FROM sys.services WHERE name = N'EchoService')
    DROP SERVICE [EchoService];
GO

IF EXISTS (SELECT 1 FROM sys.services WHERE name = N'PriorityClientService')
    DROP SERVICE [PriorityClientService];
GO

IF EXISTS (SELECT 1 FROM sys.services WHERE name = N'PriorityService')
    DROP SERVICE [PriorityService];
GO

IF EXISTS (SELECT 1 FROM sys.services WHERE name = N'AsyncInitiatorService')
    DROP SERVICE [AsyncInitiatorService];
GO

IF EXISTS (SELECT 1 FROM sys.services WHERE name = N'AsyncTargetService')
    DROP SERVICE [AsyncTargetService];
GO

IF EXISTS (SELECT 1 FROM sys.services WHERE name = N'WorkProducerService')
    DROP SERVICE [WorkProducerService];
GO

IF EXISTS (SELECT 1 FROM sys.services WHERE name = N'WorkService')
    DROP SERVICE [WorkService];
GO

IF EXISTS (SELECT 1 FROM sys.service_queues WHERE object_id = OBJECT_ID(N'[dbo].[EchoServiceQueue]'))
    DROP QUEUE [dbo].[EchoServiceQueue];
GO

IF EXISTS (SELECT 1 FROM sys.service_queues WHERE object_id = OBJECT_ID(N'[dbo].[EchoClientQueue]'))
    DROP QUEUE [dbo].[EchoClientQueue];
GO

IF EXISTS (SELECT 1 FROM sys.service_queues WHERE object_id = OBJECT_ID(N'[dbo].[PriorityServiceQueue]'))
    DROP QUEUE [dbo].[PriorityServiceQueue];
GO

IF EXISTS (SELECT 1 FROM sys.service_queues WHERE object_id = OBJECT_ID(N'[dbo].[PriorityClientQueue]'))
    DROP QUEUE [dbo].[PriorityClientQueue];
GO

IF EXISTS (SELECT 1 FROM sys.service_queues WHERE object_id = OBJECT_ID(N'[dbo].[AsyncTargetQueue]'))
    DROP QUEUE [dbo].[AsyncTargetQueue];
GO

IF EXISTS (SELECT 1 FROM sys.service_queues WHERE object_id = OBJECT_ID(N'[dbo].[AsyncInitiatorQueue]'))
    DROP QUEUE [dbo].[AsyncInitiatorQueue];
GO

IF EXISTS (SELECT 1 FROM sys.service_queues WHERE object_id = OBJECT_ID(N'[dbo].[WorkQueue]'))
    DROP QUEUE [dbo].[WorkQueue];
GO

IF EXISTS (SELECT 1 FROM sys.service_queues WHERE object_id = OBJECT_ID(N'[dbo].[WorkProducerQueue]'))
    DROP QUEUE [dbo].[WorkProducerQueue];
GO

IF EXISTS (SELECT 1 FROM sys.service_contracts WHERE name = N'EchoContract')
    DROP CONTRACT [EchoContract];
GO

IF EXISTS (SELECT 1 FROM sys.service_contracts WHERE name = N'RequestWithPriority')
    DROP CONTRACT [RequestWithPriority];
GO

IF EXISTS (SELECT 1 FROM sys.service_contracts WHERE name = N'AsyncContract')
    DROP CONTRACT [AsyncContract];
GO

IF EXISTS (SELECT 1 FROM sys.service_contracts WHERE name = N'WorkContract')
    DROP CONTRACT [WorkContract];
GO

IF EXISTS (SELECT 1 FROM sys.service_message_types WHERE name = N'EchoReply')
    DROP MESSAGE TYPE [EchoReply];
GO

IF EXISTS (SELECT 1 FROM sys.service_message_types WHERE name = N'EchoRequest')
    DROP MESSAGE TYPE [EchoRequest];
GO

IF EXISTS (SELECT 1 FROM sys.service_message_types WHERE name = N'LongWorkloadRequest')
    DROP MESSAGE TYPE [LongWorkloadRequest];
GO

IF EXISTS (SELECT 1 FROM sys.service_message_types WHERE name = N'SetPriority')
    DROP MESSAGE TYPE [SetPriority];
GO

IF EXISTS (SELECT 1 FROM sys.service_message_types WHERE name = N'Response')
    DROP MESSAGE TYPE [Response];
GO

IF EXISTS (SELECT 1 FROM sys.service_message_types WHERE name = N'AsyncSent')
    DROP MESSAGE TYPE [AsyncSent];
GO

IF EXISTS (SELECT 1 FROM sys.service_message_types WHERE name = N'AsyncDone')
    DROP MESSAGE TYPE [AsyncDone];
GO

IF EXISTS (SELECT 1 FROM sys.service_message_types WHERE name = N'WorkItem')
    DROP MESSAGE TYPE [WorkItem];
GO

IF OBJECT_ID(N'[dbo].[sample_work_log]', N'U') IS NOT NULL
    DROP TABLE [dbo].[sample_work_log];
GO

IF OBJECT_ID(N'[dbo].[sample_execution_log]', N'U') IS NOT NULL
    DROP TABLE [dbo].[sample_execution_log];
GO

IF OBJECT_ID(N'[dbo].[sample_scheduler]', N'U') IS NOT NULL
    DROP TABLE [dbo].[sample_scheduler];
GO
