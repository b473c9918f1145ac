-- Removes the walking-skeleton sample's Service Broker objects, dependents first: services, then queues (which drops
-- their messages), contract and message types. Conversations of the sample services are ended WITH CLEANUP first,
-- because a service cannot be dropped while it has conversations. Idempotent. Batches are separated by GO lines.
-- https://learn.microsoft.com/sql/t-sql/statements/end-conversation-transact-sql
-- https://learn.microsoft.com/sql/t-sql/statements/drop-service-transact-sql

DECLARE @handle UNIQUEIDENTIFIER;
DECLARE endpoints CURSOR LOCAL STATIC READ_ONLY FOR
    SELECT e.conversation_handle
    FROM sys.conversation_endpoints AS e
    JOIN sys.services AS s ON s.service_id = e.service_id
    WHERE s.name IN (N'EchoClientService', N'EchoService');
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

IF EXISTS (SELECT 1 FROM sys.services WHERE name = N'EchoService')
    DROP SERVICE [EchoService];
GO

IF EXISTS (SELECT 1 FROM sys.services WHERE name = N'EchoClientService')
    DROP SERVICE [EchoClientService];
GO

IF EXISTS (SELECT 1 FROM sys.service_queues WHERE object_id = OBJECT_ID(N'[dbo].[EchoServiceQueue]'))
    DROP QUEUE [dbo].[EchoServiceQueue];
GO

IF EXISTS (SELECT 1 FROM sys.service_queues WHERE object_id = OBJECT_ID(N'[dbo].[EchoClientQueue]'))
    DROP QUEUE [dbo].[EchoClientQueue];
GO

IF EXISTS (SELECT 1 FROM sys.service_contracts WHERE name = N'EchoContract')
    DROP CONTRACT [EchoContract];
GO

IF EXISTS (SELECT 1 FROM sys.service_message_types WHERE name = N'EchoReply')
    DROP MESSAGE TYPE [EchoReply];
GO

IF EXISTS (SELECT 1 FROM sys.service_message_types WHERE name = N'EchoRequest')
    DROP MESSAGE TYPE [EchoRequest];
GO
